#!/usr/bin/env bash
# The GitHub Action's step: install the packaged command (the version of this action, or
# PETSTORE_CONFORMANCE_PACKAGE: a tarball or another spec), run it with the inputs as PETSTORE_* variables,
# put summary.md in the job summary, and set the outputs. The exit code is the run's.
set -euo pipefail
action_path="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is set by the runner}"
version="$(node -p "require(process.argv[1]).version" "$action_path/package.json")"
package="${PETSTORE_CONFORMANCE_PACKAGE:-petstore-conformance@$version}"
prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/petstore-conformance-action"
mkdir -p "$prefix"
npm install --prefix "$prefix" --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error "$package" >&2

report_dir="${PETSTORE_REPORT_DIR:-petstore-conformance-reports}"
export PETSTORE_REPORT_DIR="$report_dir"
set +e
"$prefix/node_modules/.bin/petstore-conformance"
code=$?
set -e

if [ -f "$report_dir/summary.md" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$report_dir/summary.md" >> "$GITHUB_STEP_SUMMARY"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  node - "$report_dir/results.json" "$code" "$report_dir" >> "$GITHUB_OUTPUT" <<'NODE'
const [file, code, dir] = process.argv.slice(2)
let results
try { results = JSON.parse(require('node:fs').readFileSync(file, 'utf8')) } catch { results = undefined }
const must = (verdict) => (results?.requirements ?? []).filter((r) => r.level === 'MUST' && r.verdict === verdict).length
console.log(`verdict=${results?.headline?.text ?? 'NO VERDICT'}`)
console.log(`exit-code=${code}`)
console.log(`failed-must=${must('fail')}`)
console.log(`inconclusive-must=${must('inconclusive')}`)
console.log(`report-dir=${dir}`)
NODE
fi
exit "$code"
