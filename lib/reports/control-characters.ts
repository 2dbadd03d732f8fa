/**
 * What a target sends is data, never commands: control characters and terminal escapes in names, error
 * messages or headers are spelled out (\u001b) before they reach a console, JUnit or Markdown, so no
 * answer can move the cursor, rewrite a line, retitle a terminal or break a report's structure.
 */

/** C0 controls but tab and line feed, DEL, and the C1 controls (U+0080–U+009F): what terminals act on. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)
}

export function escapeControlCharacters(text: string): string {
  let escaped = ''
  let from = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (!isControl(code)) continue
    escaped += `${text.slice(from, index)}\\u${code.toString(16).padStart(4, '0')}`
    from = index + 1
  }
  return from === 0 ? text : escaped + text.slice(from)
}
