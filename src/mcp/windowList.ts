/**
 * What `mcp-bridge.js --list` prints: where the bridge looked (and what moves that folder), each window with its
 * folders, and for the working folder which window an agent started there reaches and why the others are not
 * it. Written for a person at a terminal whose agent "cannot find VS Code"; tokens are never printed. Pure.
 */
import type { WindowScan } from './discovery';
import { decideWindows, type WindowVerdict } from './windowChoice';

export interface WindowListInput {
  /** The folder looked in, and how it was chosen (discoveryDirReason). */
  dir: string;
  dirReason: string;
  scan: WindowScan;
  cwd: string;
}

function because(verdict: WindowVerdict, cwd: string): string {
  switch (verdict.kind) {
    case 'picked':
      return `picked: its folder ${verdict.folder} holds ${cwd}`;
    case 'outside':
      return `not picked: none of its folders holds ${cwd}`;
    case 'shallower':
      return `not picked: its folder ${verdict.folder} holds ${cwd}, but "${verdict.picked.name}" has a deeper one`;
    case 'older':
      return `not picked: "${verdict.picked.name}" has the same folder ${verdict.folder} and was started later`;
  }
}

export function describeWindows(input: WindowListInput): string {
  const { scan, cwd } = input;
  const lines = [`Looked for VS Code windows in ${input.dir}`, `  (${input.dirReason})`, ''];
  if (scan.missing) {
    lines.push("That folder does not exist: no VS Code window of this user has turned on ReadGate's MCP server there.");
    lines.push('A window started with READGATE_HOME (or READGATE_DISCOVERY_DIR) set publishes elsewhere: start the bridge with the same value.');
  } else if (scan.windows.length === 0) {
    lines.push("No VS Code window with ReadGate's MCP server is running there.");
  }
  const decisions = decideWindows(scan.windows, cwd);
  if (decisions.length > 0) {
    lines.push(`For ${cwd}:`);
    for (const { entry, verdict } of decisions) {
      lines.push(`${verdict.kind === 'picked' ? '→' : ' '} "${entry.name}" (pid ${entry.pid}, ${entry.url})`);
      lines.push(`    folders: ${entry.folders.join(', ') || '(none)'}`);
      lines.push(`    ${because(verdict, cwd)}`);
    }
    if (!decisions.some(({ verdict }) => verdict.kind === 'picked')) {
      lines.push(`No window holds ${cwd}: start the agent in one of the folders above, or pass --cwd <folder>.`);
    }
  } else {
    lines.push('Turn it on in VS Code with "ReadGate: Connect an External Agent…" (the window must run as this user).');
  }
  if (scan.skipped.length > 0) {
    lines.push('', 'Files left out:');
    for (const { file, why } of scan.skipped) lines.push(`  ${file}: ${why}`);
  }
  return `${lines.join('\n')}\n`;
}
