/**
 * Commands for integration tests only (`readgate._test.*`, registered by extension.ts when READGATE_TEST_HOOKS=1):
 * they reach what no command or API exposes: the review's protocol, the participant's turns, the guard, the MCP
 * server's offers and timings, and the Agent Changes view as it draws its items.
 */
import * as vscode from 'vscode';
import type { Guard, MultiEditChange, ToolResultStore } from '../../core/index';
import type { ApprovalService } from '../approval/approvalService';
import type { ParticipantTurn, ReadGateParticipant } from '../chat/participant';
import type { Command, CommandManager } from '../commands/commandManager';
import type { AgentChangesNode, AgentChangesView } from '../history/agentChangesView';
import { DEFAULT_MCP_TIMINGS, type McpHost, type McpTimings } from '../mcp/mcpHost';

export interface TestHookDeps {
  approvals: ApprovalService;
  participant: ReadGateParticipant;
  toolResults: ToolResultStore;
  guard: Guard;
  mcp: McpHost;
  agentChanges: AgentChangesView;
  /** The change history's folder (undefined: no history in this window). */
  historyFolder: string | undefined;
}

/** An item of the Agent Changes view as the test hook reads it. */
export interface DrawnItem {
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
  /** The command a click runs, and the file it opens (a change of one file opens it). */
  command?: { id: string; file?: string };
  children: DrawnItem[];
}

async function drawn(view: AgentChangesView, node?: AgentChangesNode): Promise<DrawnItem[]> {
  const children = await view.getChildren(node);
  return Promise.all(
    children.map(async (child) => {
      const item = view.getTreeItem(child);
      const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? '');
      const target = item.command?.arguments?.[0] as AgentChangesNode | undefined;
      const command = item.command ? { command: { id: item.command.command, ...(target?.kind === 'file' ? { file: target.file.path } : {}) } } : {};
      return {
        label: String(item.label),
        description: String(item.description ?? ''),
        tooltip,
        contextValue: item.contextValue ?? '',
        ...command,
        children: await drawn(view, child),
      };
    }),
  );
}

/** The review panel's protocol, sent exactly as the webview would, and the chat participant's finished turns (the chat UI does not expose them). */
function reviewHooks({ approvals }: TestHookDeps, turns: readonly ParticipantTurn[]): Command[] {
  return [
    {
      id: 'readgate._test.approval',
      execute: (action: 'pending' | 'message', message?: unknown) => {
        if (action === 'pending') return approvals.views();
        approvals.handle(message);
        return undefined;
      },
    },
    { id: 'readgate._test.chatTurns', execute: () => turns.map((turn) => JSON.parse(JSON.stringify(turn)) as ParticipantTurn) },
  ];
}

/**
 * Smaller saved-tool-result budgets (so a test need not produce 50 MB), the guard's live session ids (one-call
 * sessions must not pile up), a guard session called directly (for changes no tool or API offers yet: deleting and
 * moving files), what the MCP server definition provider gave VS Code each time it asked, and shorter MCP timings.
 */
function guardHooks({ toolResults, guard, mcp }: TestHookDeps): Command[] {
  type GuardCall = { read: string } | { multiEdit: MultiEditChange[]; explanation?: string } | { drop: true };
  return [
    {
      id: 'readgate._test.toolResults',
      execute: (limits: { maxFileBytes?: number; maxSessionBytes?: number } = {}) => {
        toolResults.configure(limits);
        return toolResults.dir;
      },
    },
    { id: 'readgate._test.sessionIds', execute: () => guard.sessionIds() },
    {
      id: 'readgate._test.guardCall',
      execute: (sessionId: string, call: GuardCall) => {
        if ('drop' in call) return guard.dropSession(sessionId);
        const session = guard.session(sessionId);
        return 'read' in call ? session.read(call.read) : session.multiEdit(call.multiEdit, { explanation: call.explanation });
      },
    },
    { id: 'readgate._test.mcpOffered', execute: () => mcp.offered.map((uris) => [...uris]) },
    // Restarts the server with the timings (idle sessions, progress while a change waits for review).
    { id: 'readgate._test.mcpTimings', execute: async (timings?: McpTimings) => (await mcp.setTimings(timings ?? DEFAULT_MCP_TIMINGS))?.url },
  ];
}

/** The Agent Changes view as it draws its items (label, description, context value, children), and the history's folder. */
function historyHooks({ agentChanges, historyFolder }: TestHookDeps): Command[] {
  return [
    // `refresh: false` reads what the view would draw now, to see that it heard of a change by itself.
    {
      id: 'readgate._test.agentChanges',
      execute: async (options?: { refresh?: boolean }) => {
        if (options?.refresh !== false) agentChanges.refresh();
        return drawn(agentChanges);
      },
    },
    // The tree's nodes themselves, to run the view's commands on them as its context menu does.
    {
      id: 'readgate._test.agentChangeNodes',
      execute: async () => {
        const sessions = await agentChanges.getChildren();
        const all: AgentChangesNode[] = [];
        for (const session of sessions) {
          all.push(session);
          for (const change of await agentChanges.getChildren(session)) all.push(change, ...(await agentChanges.getChildren(change)));
        }
        return all;
      },
    },
    { id: 'readgate._test.historyFolder', execute: () => historyFolder },
  ];
}

/** Registers the hooks; the returned Disposable stops collecting the participant's turns. */
export function registerTestHooks(commands: CommandManager, deps: TestHookDeps): vscode.Disposable {
  const turns: ParticipantTurn[] = [];
  const collecting = deps.participant.onDidFinishTurn((turn) => turns.push(turn));
  for (const hook of [...reviewHooks(deps, turns), ...guardHooks(deps), ...historyHooks(deps)]) commands.register(hook);
  return collecting;
}
