/** What the @readgate chat tests and the docs pictures share: the scripted model, a turn asked and its approvals. */
import * as vscode from 'vscode';
import type { ScriptedModelApi, ScriptedPart, ScriptedRequest } from '../fixtures/scriptedModel/scriptTypes';
import * as harness from './harness';

export interface Turn {
  sessionId: string;
  result: { metadata?: { readgateSession: string; command?: string; rounds: { calls: { name: string }[]; results: Record<string, string> }[] }; errorDetails?: { message: string } };
}

export const APPROVAL_HOOK = 'readgate._test.approval';
export const turns = async (): Promise<Turn[]> => (await vscode.commands.executeCommand<Turn[]>('readgate._test.chatTurns')) ?? [];
export const settings = () => vscode.workspace.getConfiguration('readgate');

export async function scriptedModel(): Promise<ScriptedModelApi> {
  const extension = vscode.extensions.getExtension<ScriptedModelApi>('readgate-test.scripted-model');
  if (!extension) throw new Error('the scripted model fixture extension is not loaded');
  return extension.activate();
}

/** A script that answers request i with steps[i] (and with a closing text after the last step). */
export function steps(...answers: ((request: ScriptedRequest) => ScriptedPart[])[]) {
  return (request: ScriptedRequest, index: number) => (answers[index] ?? (() => [{ text: 'Done.' }]))(request);
}

export const call = (name: string, input: object): ScriptedPart[] => [{ toolCall: { name, input } }];

/** The text of the tool results the model received in its newest message. */
export const lastResults = (request: ScriptedRequest | undefined): string[] => request?.messages[request.messages.length - 1]?.toolResults.map((result) => result.text) ?? [];

/** Sends a chat request to @readgate and resolves with the finished turn. */
export async function ask(query: string, options: { whileRunning?: () => Promise<void> } = {}): Promise<Turn> {
  const before = (await turns()).length;
  void vscode.commands.executeCommand('workbench.action.chat.open', { query });
  const running = options.whileRunning?.();
  const turn = await harness.waitFor(`the @readgate turn for "${query}"`, async () => (await turns())[before], 60_000);
  await running;
  return turn;
}

export async function approveNext(): Promise<void> {
  const request = await harness.waitFor('an approval request', async () => (await vscode.commands.executeCommand<{ id: string; revision: number }[]>(APPROVAL_HOOK, 'pending'))?.[0]);
  await vscode.commands.executeCommand(APPROVAL_HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
}


/** The chat view drops a query sent before it and its models are ready: asks until the first turn arrives. */
export async function untilChatAnswers(): Promise<void> {
  for (let attempt = 0; (await turns()).length === 0; attempt++) {
    if (attempt === 10) throw new Error('the chat view never delivered a request to @readgate');
    void vscode.commands.executeCommand('workbench.action.chat.open', { query: '@readgate /ledger' });
    await harness.waitFor('the first @readgate turn', async () => (await turns()).length > 0, 8_000).catch(() => undefined);
  }
}
