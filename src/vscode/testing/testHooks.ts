/**
 * Commands for integration tests only (registered when READGATE_TEST_HOOKS=1): read the pending review
 * requests and send the approval panel's protocol messages, exactly as the webview would; and list the chat
 * participant's finished turns (session id and result), which the chat UI does not expose to extensions; and
 * shrink the saved-tool-result budgets (so a test need not produce 50 MB), answering the results folder; and
 * list the guard's live session ids (to see that one-call sessions do not pile up); and list what the MCP
 * server definition provider gave VS Code each time VS Code asked; and call a guard session directly, for
 * changes no tool or API offers yet (deleting and moving files); and shorten the MCP server's timings (idle
 * sessions, progress while a change waits for review), which restarts it; and read the Agent Changes view as
 * it draws its items (label, description, context value, children), and the change history's folder.
 */
import * as vscode from 'vscode';
import type { Guard, MultiEditChange, ToolResultStore } from '../../core/index';
import type { ParticipantTurn, ReadGateParticipant } from '../chat/participant';
import type { ApprovalService } from './approvalService';
import { DEFAULT_MCP_TIMINGS, type McpHost, type McpTimings } from '../mcp/mcpHost';
import type { AgentChangesNode, AgentChangesView } from '../history/agentChangesView';

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
      return { label: String(item.label), description: String(item.description ?? ''), tooltip, contextValue: item.contextValue ?? '', ...command, children: await drawn(view, child) };
    }),
  );
}

export const TEST_HOOK_COMMAND = 'readgate._test.approval';
export const CHAT_TEST_HOOK_COMMAND = 'readgate._test.chatTurns';

export function registerTestHooks(approvals: ApprovalService, participant: ReadGateParticipant, toolResults: ToolResultStore, guard: Guard, mcp: McpHost, history: { agentChanges: AgentChangesView; folder: string | undefined }): vscode.Disposable {
  const turns: ParticipantTurn[] = [];
  return vscode.Disposable.from(
    vscode.commands.registerCommand(TEST_HOOK_COMMAND, (action: 'pending' | 'message', message?: unknown) => {
      if (action === 'pending') return approvals.views();
      approvals.handle(message);
      return undefined;
    }),
    participant.onDidFinishTurn((turn) => turns.push(turn)),
    vscode.commands.registerCommand(CHAT_TEST_HOOK_COMMAND, () => turns.map((turn) => JSON.parse(JSON.stringify(turn)) as ParticipantTurn)),
    vscode.commands.registerCommand('readgate._test.toolResults', (limits: { maxFileBytes?: number; maxSessionBytes?: number } = {}) => {
      toolResults.configure(limits);
      return toolResults.dir;
    }),
    vscode.commands.registerCommand('readgate._test.sessionIds', () => guard.sessionIds()),
    vscode.commands.registerCommand('readgate._test.mcpOffered', () => mcp.offered.map((uris) => [...uris])),
    vscode.commands.registerCommand('readgate._test.mcpTimings', async (timings?: McpTimings) => (await mcp.setTimings(timings ?? DEFAULT_MCP_TIMINGS))?.url),
    // `refresh: false` reads what the view would draw now, to see that it heard of a change by itself.
    vscode.commands.registerCommand('readgate._test.agentChanges', async (options?: { refresh?: boolean }) => {
      if (options?.refresh !== false) history.agentChanges.refresh();
      return drawn(history.agentChanges);
    }),
    // The tree's nodes themselves, to run the view's commands on them as its context menu does.
    vscode.commands.registerCommand('readgate._test.agentChangeNodes', async () => {
      const sessions = await history.agentChanges.getChildren();
      const all: AgentChangesNode[] = [];
      for (const session of sessions) {
        all.push(session);
        for (const change of await history.agentChanges.getChildren(session)) all.push(change, ...(await history.agentChanges.getChildren(change)));
      }
      return all;
    }),
    vscode.commands.registerCommand('readgate._test.historyFolder', () => history.folder),
    vscode.commands.registerCommand('readgate._test.guardCall', (sessionId: string, call: { read: string } | { multiEdit: MultiEditChange[]; explanation?: string } | { drop: true }) => {
      if ('drop' in call) return guard.dropSession(sessionId);
      const session = guard.session(sessionId);
      return 'read' in call ? session.read(call.read) : session.multiEdit(call.multiEdit, { explanation: call.explanation });
    }),
  );
}
