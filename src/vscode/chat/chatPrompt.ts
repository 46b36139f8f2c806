/**
 * The messages `@readgate` sends its model: instructions that teach the guarded protocol, this chat's earlier
 * turns replayed from their metadata (tool calls and results exactly as the model saw them, so a dedup
 * placeholder always refers to content still in the model's context), then the user's new request.
 * File contents are never pasted in: the model reads through `readgate_read`, so the ledger knows exactly
 * what it has seen. The rules of the tools are the ones every surface states (`agentRules` of the core).
 */
import * as vscode from 'vscode';
import { agentRulesList, TOOL_NAMES } from '../../core/index';
import type { ReplayTurn, ToolRound } from './chatTurns';

const DROPPED = '[This output is no longer in the conversation. Call the tool again if you need it.]';

export function instructions(): string {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => `- ${folder.uri.scheme === 'file' ? folder.uri.fsPath : folder.uri.toString()}`);
  return [
    "You are @readgate, a coding assistant working on the user's files in VS Code through ReadGate's guarded file tools.",
    'Rules of the tools:',
    agentRulesList({ placeholders: true, persistedOutputs: true }),
    'Paths may be absolute or relative to the first workspace folder.',
    ...(folders.length ? ['Workspace folders:', ...folders] : ['No folder is open; ask the user to open one if files are needed.']),
    'Answer concisely in Markdown.',
  ].join('\n');
}

function roundMessages(round: ToolRound, dropped: boolean): vscode.LanguageModelChatMessage[] {
  if (round.calls.length === 0) return round.text ? [vscode.LanguageModelChatMessage.Assistant(round.text)] : [];
  const said: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
  if (round.text) said.push(new vscode.LanguageModelTextPart(round.text));
  for (const call of round.calls) said.push(new vscode.LanguageModelToolCallPart(call.callId, call.name, (call.input ?? {}) as object));
  const results = round.calls.map(
    (call) =>
      new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(dropped ? DROPPED : (round.results[call.callId] ?? DROPPED))]),
  );
  return [vscode.LanguageModelChatMessage.Assistant(said), vscode.LanguageModelChatMessage.User(results)];
}

/** Earlier turns as messages; the first `dropTurns` keep their calls but not their outputs. */
export function replayMessages(turns: readonly ReplayTurn[], dropTurns: number): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  turns.forEach((turn, index) => {
    messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    if (turn.rounds.length === 0) {
      if (turn.fallbackText) messages.push(vscode.LanguageModelChatMessage.Assistant(turn.fallbackText));
      return;
    }
    for (const round of turn.rounds) messages.push(...roundMessages(round, index < dropTurns));
  });
  return messages;
}

/** The user's request, with the files and selections they attached named (not pasted: the model reads them). */
export function requestMessage(request: vscode.ChatRequest): vscode.LanguageModelChatMessage {
  const attached: string[] = [];
  for (const reference of request.references) {
    const value = reference.value;
    if (value instanceof vscode.Uri) attached.push(`- ${value.scheme === 'file' ? value.fsPath : value.toString()}`);
    else if (value instanceof vscode.Location) {
      attached.push(
        `- ${value.uri.scheme === 'file' ? value.uri.fsPath : value.uri.toString()} (lines ${value.range.start.line + 1}–${value.range.end.line + 1})`,
      );
    }
  }
  const prompt = request.prompt.trim() || 'Continue.';
  return vscode.LanguageModelChatMessage.User(
    attached.length ? `${prompt}\n\nThe user attached (read them with ${TOOL_NAMES.read}):\n${attached.join('\n')}` : prompt,
  );
}

/** Rough size of messages in characters, for fitting the model's context. */
export function charsOf(messages: readonly vscode.LanguageModelChatMessage[]): number {
  let total = 0;
  for (const message of messages) {
    for (const part of message.content) {
      if (part instanceof vscode.LanguageModelTextPart) total += part.value.length;
      else if (part instanceof vscode.LanguageModelToolResultPart) {
        total += part.content.reduce((sum: number, inner) => sum + (inner instanceof vscode.LanguageModelTextPart ? inner.value.length : 0), 0);
      } else if (part instanceof vscode.LanguageModelToolCallPart) total += JSON.stringify(part.input ?? {}).length;
    }
  }
  return total;
}
