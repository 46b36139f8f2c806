/**
 * The one rule for text from outside that is shown on one line: an MCP client's name, session labels and ids
 * another extension chose, file names an agent chose. Control and format characters (and the Unicode line and
 * paragraph separators) become a space, so such text cannot break a line or a table row, reorder what follows
 * it (U+202E) or bring invisible characters into a label. The MCP surface names its clients with it; the VS Code
 * adapter escapes Markdown after it (`util/markdownText.ts`), which is why it lives here, below both.
 */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]+/gu;

/** `text` with each run of control and format characters replaced by one space. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, ' ');
}
