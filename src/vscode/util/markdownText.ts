/**
 * Text from outside (session labels that an MCP client or another extension chose, file names an agent chose,
 * session ids) placed into Markdown: the ledger and statistics reports, `/ledger` in chat, tooltips. Escaped so
 * it reads as itself: no link, emphasis, HTML or table cell can come out of a name. Pure (no vscode import).
 * Control and format characters go first, by the rule MCP client names follow too (`withoutControls`).
 */
import { withoutControls } from '../../mcp/index';

/**
 * What could start or end markup inside a line: emphasis, links and images (`[`), HTML and autolinks (`<`, and
 * `:` of a scheme), code, table cells, entities and theme icons. Nothing more, so names stay readable where the
 * Markdown is shown as source (the ledger). Bare domains may still be linkified by a renderer: only http(s).
 */
const MARKUP = /[\\`*_~[\]<>|&$:]/g;

/** `text` as literal Markdown inline text (one line; control and format characters become a space). */
export function markdownText(text: string): string {
  return withoutControls(text).replace(MARKUP, '\\$&');
}

/** `text` as an inline code span that no backtick inside it can end early. */
export function markdownCode(text: string): string {
  const clean = withoutControls(text);
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick (or a space) needs a space inside its fence, which Markdown strips.
  const pad = /^[` ]|[` ]$/.test(clean) ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}
