#!/usr/bin/env bash
# The GitHub Action's step: install the packaged command (the version of this action, or
# PETSTORE_CONFORMANCE_PACKAGE: a tarball or another spec), run it with the inputs as PETSTORE_* variables,
# put summary.md in the job summary, and set the outputs. The HAR file goes into the report directory, so the
# action's upload step keeps it with the other reports. The exit code is the run's.
set -euo pipefail
action_path="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is set by the runner}"
version="$(node -p "require(process.argv[1]).version" "$action_path/package.json")"
package="${PETSTORE_CONFORMANCE_PACKAGE:-petstore-conformance@$version}"
prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/petstore-conformance-action"
mkdir -p "$prefix"
# A second use of the action in the same job finds the same package installed (a tarball: the same bytes) and skips npm.
identity="$package"
if [ -f "$package" ]; then identity="$package $(sha256sum < "$package")"; fi
if [ -x "$prefix/node_modules/.bin/petstore-conformance" ] && [ "$(cat "$prefix/installed-package" 2>/dev/null)" = "$identity" ]; then
  echo "petstore-conformance: $package is installed already in this job" >&2
else
  npm install --prefix "$prefix" --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error "$package" >&2
  printf '%s' "$identity" > "$prefix/installed-package"
fi

report_dir="${PETSTORE_REPORT_DIR:-petstore-conformance-reports}"
export PETSTORE_REPORT_DIR="$report_dir"
har="${PETSTORE_ACTION_HAR:-}"
if [ -n "$har" ]; then export PETSTORE_HAR="$report_dir/$har"; fi
# A cancelled job signals this script: the command gets the signal too (it then writes its reports and exits 3),
# and the script waits for it. Run in the background, since bash holds a trap while a foreground child runs.
set +e
"$prefix/node_modules/.bin/petstore-conformance" &
pid=$!
signalled=0
trap 'signalled=1; kill -INT "$pid" 2>/dev/null' INT
trap 'signalled=1; kill -TERM "$pid" 2>/dev/null' TERM
wait "$pid"
code=$?
# A trapped signal ends `wait` early: wait again, for the command's own exit code.
while [ "$signalled" = 1 ]; do
  signalled=0
  wait "$pid"
  code=$?
done
trap - INT TERM
set -e

if [ -f "$report_dir/summary.md" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$report_dir/summary.md" >> "$GITHUB_STEP_SUMMARY"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  node - "$report_dir/results.json" "$code" "$report_dir" "${PETSTORE_HAR:-}" >> "$GITHUB_OUTPUT" <<'NODE'
const [file, code, dir, har] = process.argv.slice(2)
let results
try { results = JSON.parse(require('node:fs').readFileSync(file, 'utf8')) } catch { results = undefined }
const must = (verdict) => (results?.requirements ?? []).filter((r) => r.level === 'MUST' && r.verdict === verdict).length
console.log(`verdict=${results?.headline?.text ?? 'NO VERDICT'}`)
console.log(`exit-code=${code}`)
console.log(`failed-must=${must('fail')}`)
console.log(`inconclusive-must=${must('inconclusive')}`)
console.log(`report-dir=${dir}`)
console.log(`har=${har && require('node:fs').existsSync(har) ? har : ''}`)
NODE
fi
exit "$code"
