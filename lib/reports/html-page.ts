/**
 * The frame of every HTML report: one self-contained page whose Content-Security-Policy lets nothing load from
 * anywhere (no network, no external asset) and lets only the page's own inline style and script run. The title
 * is escaped here; the body is HTML its renderer has already escaped.
 */
import { escapeHtml } from './escape-html.js'

export function htmlPage(page: { title: string; style: string; body: string; script: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${escapeHtml(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
${page.body}
<script>${page.script}</script>
</body>
</html>
`
}
