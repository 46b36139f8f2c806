/**
 * The custom agent **Create a Guarded Agent** writes for Copilot's agent mode: ReadGate's five tools instead of
 * the built-in edit tools, plus read-only search. Where VS Code reads it and how tools are named depend on the
 * version (a pure decision, unit-tested): VS Code 1.106 and later read custom agents from
 * `.github/agents/*.agent.md` and name extension tools `<extension id>/<toolReferenceName>`; 1.104 and 1.105 read
 * custom chat modes from `.github/chatmodes/*.chatmode.md` and name them by `toolReferenceName`.
 */

import { GUARDED_AGENT_INSTRUCTIONS, TOOL_REFERENCE_NAMES } from '../../core/index';

const EXTENSION_ID = 'readgate.readgate';
const READGATE_TOOLS = Object.values(TOOL_REFERENCE_NAMES);

export interface AgentFile {
  /** Relative to the workspace folder, with forward slashes. */
  path: string;
  content: string;
  kind: 'custom agent' | 'custom chat mode';
}

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a, b] = version.split('.').map((part) => Number.parseInt(part, 10));
  return a > major || (a === major && (b ?? 0) >= minor);
}

const INSTRUCTIONS = GUARDED_AGENT_INSTRUCTIONS;

export function guardedAgentFile(vscodeVersion: string): AgentFile {
  if (versionAtLeast(vscodeVersion, 1, 106)) {
    const tools = ['search', 'todo', ...READGATE_TOOLS.map((tool) => `${EXTENSION_ID}/${tool}`)];
    return {
      path: '.github/agents/readgate.agent.md',
      kind: 'custom agent',
      content: `---\nname: ReadGate\ndescription: Edits files only through ReadGate: read before changing, every change reviewed, stale edits refused.\ntools: [${tools.map((tool) => `'${tool}'`).join(', ')}]\n---\n${INSTRUCTIONS}`,
    };
  }
  const tools = ['codebase', 'search', 'usages', 'problems', ...READGATE_TOOLS];
  return {
    path: '.github/chatmodes/ReadGate.chatmode.md',
    kind: 'custom chat mode',
    content: `---\ndescription: Edits files only through ReadGate: read before changing, every change reviewed, stale edits refused.\ntools: [${tools.map((tool) => `'${tool}'`).join(', ')}]\n---\n${INSTRUCTIONS}`,
  };
}
