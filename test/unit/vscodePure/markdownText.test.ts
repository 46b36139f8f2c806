/**
 * Names from outside (an MCP client's name, a file an agent created, a session id another extension chose) put
 * into the Markdown of reports, /ledger and tooltips read as themselves, rendered by markdown-it (the renderer of
 * VS Code's Markdown preview) with HTML and linkify on: no link, emphasis, HTML, heading or extra table cell.
 */
import * as assert from 'assert';
import { markdownCode, markdownText } from '../../../src/vscode/util/markdownText';

type Renderer = { render(text: string): string };
const MarkdownIt = require('markdown-it') as new (options: object) => Renderer;
const md = new MarkdownIt({ html: true, linkify: true });

const HOSTILE = [
  'Claude Code 2.0',
  '[Approve all](command:readgate.approveAll)',
  'a | b | c',
  '<img src=x onerror=alert(1)>',
  '**bold** _it_ ~~gone~~ `code`',
  'https://example.com/x and www.example.com',
  'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D',
  '# heading\n- list\r\n> quote',
  'tab\there\u0000nul\u202eRTL',
  '\\| escaped already \\',
  '$(zap) icon &amp; entity &lt;',
  '1. not a list',
];

/** What a cell shows: the HTML's text, with entities decoded. */
function textOf(html: string): string {
  return html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

const asShown = (name: string): string => name.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ');

suite('Markdown of names from outside', () => {
  test('a name in a table cell stays one cell of plain text', () => {
    for (const name of HOSTILE) {
      const html = md.render(`| session | reads |\n|---|---|\n| ${markdownText(name)} | 3 |\n`);
      const cells = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((match) => match[1]);
      assert.strictEqual(cells.length, 2, `${JSON.stringify(name)} → ${html}`);
      assert.strictEqual(textOf(cells[0]), asShown(name), `${JSON.stringify(name)} → ${html}`);
      assert.ok(!/<(img|em|strong|s|code|h\d|ul|ol|blockquote)\b/.test(cells[0]), `markup from ${JSON.stringify(name)}: ${cells[0]}`);
      // A renderer's linkify may still make a bare domain a web link; nothing else may become a link.
      assert.ok(!/<a (?![^>]*href="https?:\/\/)/.test(cells[0]), `a link that is not http(s) from ${JSON.stringify(name)}: ${cells[0]}`);
      assert.strictEqual(cells[1], '3');
    }
  });

  test('a name in a heading or bold stays plain text there', () => {
    for (const name of HOSTILE) {
      const heading = md.render(`# ReadGate ledger: ${markdownText(name)}\n`).trim();
      assert.match(heading.replace(/<a href="https?:\/\/[^"]*">([^<]*)<\/a>/g, '$1'), /^<h1>[^<]*<\/h1>$/, `${JSON.stringify(name)} → ${heading}`);
      assert.strictEqual(textOf(heading), `ReadGate ledger: ${asShown(name)}`.trim());
      const bold = md.render(`**${markdownText(name)}**\n`).trim();
      assert.match(bold.replace(/<a href="https?:\/\/[^"]*">([^<]*)<\/a>/g, '$1'), /^<p><strong>[^<]*<\/strong><\/p>$/, `${JSON.stringify(name)} → ${bold}`);
    }
  });

  test('a code span holds any text, backticks included', () => {
    for (const id of ['plain', 'a`b', '``x``', '`edge', 'edge`', ' spaced ', ...HOSTILE]) {
      const html = md.render(`Session id: ${markdownCode(id)}\n`).trim();
      const spans = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)];
      assert.strictEqual(spans.length, 1, `${JSON.stringify(id)} → ${html}`);
      assert.strictEqual(textOf(spans[0][1]), asShown(id), `${JSON.stringify(id)} → ${html}`);
      assert.ok(html.endsWith('</code></p>'), `text escaped the span: ${html}`);
    }
  });
});
