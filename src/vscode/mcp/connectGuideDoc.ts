/**
 * The Connect guide as Markdown, for docs/agents.md: the section between the `clients` markers there is exactly
 * what this writes (`npm run docs` writes it, a unit test fails when it differs), so the page an agent's user
 * copies from and the documentation never say different things. Pure: no `vscode` import.
 */
import { connectGuide, type GuideBlock, type GuideSection, NOT_GUARDED, WAITING_FOR_REVIEW } from './connectGuide';

/** The paths the documentation shows where the page shows the user's own. */
export const DOC_GUIDE_INPUT = {
  bridgePath: '/home/you/.readgate/mcp-bridge.js',
  discoveryDir: '/home/you/.readgate/windows',
  headlessPath: '/path/to/dist/mcp.js',
  folder: '/path/to/project',
} as const;

/** The generated part of a document sits between `<!-- <name>:start -->` and `<!-- <name>:end -->`. */
const markers = (name: string) => ({ start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` });

/** The text between a document's markers (without them), or undefined when they are missing. */
export function generatedPart(document: string, name: string): string | undefined {
  const { start, end } = markers(name);
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) return undefined;
  return document.slice(from + start.length, to);
}

/** The document with the text between its markers replaced; throws when the markers are missing. */
export function withGeneratedPart(document: string, name: string, body: string): string {
  const { start, end } = markers(name);
  if (generatedPart(document, name) === undefined) throw new Error(`no ${start} … ${end} in the document`);
  return document.slice(0, document.indexOf(start) + start.length) + body + document.slice(document.indexOf(end));
}

/** Prose from the guide as Markdown: outside code spans, backslashes, `<` (a tag to a renderer) and `*` are escaped. */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\<*]/g, '\\$&')))
    .join('');
}

function fenceLanguage(text: string): string {
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    if (text.startsWith('[')) return 'toml';
    return /^(node|claude|qwen|gemini|codex|[A-Z_]+=)\b/.test(text) ? 'sh' : 'text';
  }
}

function codeBlock(block: GuideBlock): string {
  const text = block.display ?? block.text;
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${fenceLanguage(text)}\n${text}\n${fence}`;
}

function sectionMarkdown(section: GuideSection): string {
  const parts = [`### ${section.title}`, prose(section.intro)];
  // The action's own words are Markdown already (a command's name in bold, a setting in a code span).
  if (section.action) parts.push(section.action.docText);
  for (const block of section.blocks) parts.push(prose(block.caption), codeBlock(block));
  if (section.notes.length > 0) parts.push(section.notes.map((note) => `- ${prose(note)}`).join('\n'));
  return parts.join('\n\n');
}

/** What docs/agents.md holds between its `clients` markers. */
export function connectGuideMarkdown(sections: readonly GuideSection[] = connectGuide(DOC_GUIDE_INPUT)): string {
  const parts = [
    `What **ReadGate: Connect an External Agent…** shows, written from the same source by \`npm run docs\`. Here \`${DOC_GUIDE_INPUT.bridgePath}\` stands for your bridge and \`${DOC_GUIDE_INPUT.folder}\` for your project; the page fills in your own paths and, while the window's server runs, its HTTP address and token.`,
    ...sections.map(sectionMarkdown),
    `### While a change waits for your review\n\n${prose(WAITING_FOR_REVIEW)}`,
    `### What is guarded, and what is not\n\n${NOT_GUARDED.map((line) => `- ${prose(line)}`).join('\n')}`,
  ];
  return `\n${parts.join('\n\n')}\n`;
}
