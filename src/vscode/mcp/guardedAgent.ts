/**
 * The custom agent **Create a Guarded Agent** writes for Copilot's agent mode: ReadGate's five tools instead of
 * the built-in edit tools, plus read-only search. Where VS Code reads it and how tools are named depend on the
 * version (a pure decision, unit-tested): VS Code 1.106 and later read custom agents from
 * `.github/agents/*.agent.md` and name extension tools `<extension id>/<toolReferenceName>`; 1.104 and 1.105 read
 * custom chat modes from `.github/chatmodes/*.chatmode.md` and name them by `toolReferenceName`.
 *
 * The frontmatter is written by a YAML library with every string double-quoted: a plain value holding `: ` (as
 * the description does) is not valid YAML, and VS Code, its Markdown preview and other readers then drop the
 * whole header.
 */
import { Document, isSeq } from 'yaml';

import { GUARDED_AGENT_INSTRUCTIONS, TOOL_REFERENCE_NAMES } from '../../core/index';

const EXTENSION_ID = 'readgate.readgate';
const READGATE_TOOLS = Object.values(TOOL_REFERENCE_NAMES);

/** The frontmatter's fields, as any YAML reader must get them back. */
export interface AgentHeader {
  name?: string;
  description: string;
  tools: string[];
}

export interface AgentFile {
  /** Relative to the workspace folder, with forward slashes. */
  path: string;
  content: string;
  header: AgentHeader;
  kind: 'custom agent' | 'custom chat mode';
}

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a, b] = version.split('.').map((part) => Number.parseInt(part, 10));
  return a > major || (a === major && (b ?? 0) >= minor);
}

const INSTRUCTIONS = GUARDED_AGENT_INSTRUCTIONS;

const DESCRIPTION = 'Edits files only through ReadGate: read before changing, every change reviewed, stale edits refused.';

/** `---`, the fields as YAML (strings double-quoted, lists on one line as VS Code's examples write them), `---`. */
export function frontmatter(header: AgentHeader): string {
  const document = new Document(Object.fromEntries(Object.entries(header).filter(([, value]) => value !== undefined)));
  for (const pair of (document.contents as { items: { value: unknown }[] }).items) {
    if (isSeq(pair.value)) pair.value.flow = true;
  }
  const yaml = document.toString({ defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0, flowCollectionPadding: false });
  return `---\n${yaml}---\n`;
}

/**
 * Search tools by name, never a whole tool set: Copilot's `search` set grows (it offered `read_file`, which reads
 * outside ReadGate, so the agent's next edit was refused as unread), and `codebase` and `changes` show file
 * contents too. Kept: finding files, searching text, listing folders, the problems panel; `agent` lets it run
 * subagents, which get the same tools and ledgers of their own. Nothing reads, edits or runs a command but
 * ReadGate's tools.
 */
export const GUARDED_SEARCH_TOOLS = ['search/fileSearch', 'search/textSearch', 'search/listDirectory', 'read/problems', 'todo', 'agent'] as const;

/** The same for custom chat modes (VS Code 1.104 and 1.105), which name tools without their set. */
export const GUARDED_MODE_SEARCH_TOOLS = ['fileSearch', 'textSearch', 'listDirectory', 'problems'] as const;

export function guardedAgentFile(vscodeVersion: string): AgentFile {
  if (versionAtLeast(vscodeVersion, 1, 106)) {
    const header = { name: 'ReadGate', description: DESCRIPTION, tools: [...GUARDED_SEARCH_TOOLS, ...READGATE_TOOLS.map((tool) => `${EXTENSION_ID}/${tool}`)] };
    return { path: '.github/agents/readgate.agent.md', kind: 'custom agent', header, content: frontmatter(header) + INSTRUCTIONS };
  }
  const header = { description: DESCRIPTION, tools: [...GUARDED_MODE_SEARCH_TOOLS, ...READGATE_TOOLS] };
  return { path: '.github/chatmodes/ReadGate.chatmode.md', kind: 'custom chat mode', header, content: frontmatter(header) + INSTRUCTIONS };
}
