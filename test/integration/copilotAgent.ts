/**
 * GitHub Copilot Chat's own agent mode as a test client: the Copilot Chat that ships with the bundled VS Code
 * (0.67.0 in 1.139.1) runs signed out on the scripted model of the test fixture (`test/fixtures/scriptedModel`),
 * and every request it sends that model is recorded, so a test judges what the model received.
 *
 * - VS Code keeps the built-in Copilot disabled until chat is set up; **Chat: Manage Language Models** once
 *   enables it without signing in.
 * - `chat.byokUtilityModelDefault: "mainAgent"` sends its side requests (titles, progress messages) to the
 *   scripted model too; they carry no tools and are answered with a `<summary>`.
 * - The network is blocked for the suite: `http.proxy` points at a closed local port, so nothing Copilot tries
 *   to reach leaves the machine (there is no network here anyway) and no account is needed.
 * - A turn is a prompt sent with `workbench.action.chat.open` in a mode (a custom agent by name) with the scripted
 *   model; it is over once the script answered a request with tools by text alone.
 */
import * as vscode from 'vscode';
import type { ScriptedMessage, ScriptedModelApi, ScriptedPart, ScriptedRequest } from '../fixtures/scriptedModel/scriptTypes';

/** What the scripted model received and answers: the fixture's own types (`scriptTypes.ts`). */
export type ModelMessage = ScriptedMessage;
export type ModelRequest = ScriptedRequest;
export type ModelReply = ScriptedPart;
type ScriptedModel = Pick<ScriptedModelApi, 'setScript' | 'requests' | 'setMaxInputTokens'>;

/** What the script answers for one agent request: the next replies, or undefined to end the turn with "Done.". */
export type AgentScript = (request: ModelRequest, context: { subagent: boolean }) => ModelReply | undefined | Promise<ModelReply | undefined>;

const COPILOT = 'GitHub.copilot-chat';

let model: ScriptedModel | undefined;

export async function scriptedModel(): Promise<ScriptedModel> {
  model ??= await vscode.extensions.getExtension<ScriptedModel>('readgate-test.scripted-model')!.activate();
  return model;
}

/** Turns the built-in Copilot on (signed out, offline) and points its side requests at the scripted model. */
export async function enableCopilot(): Promise<string> {
  await vscode.workspace.getConfiguration().update('chat.byokUtilityModelDefault', 'mainAgent', vscode.ConfigurationTarget.Global);
  await vscode.workspace.getConfiguration().update('http.proxy', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
  await scriptedModel();
  if (!vscode.extensions.getExtension(COPILOT)?.isActive) await vscode.commands.executeCommand('workbench.action.chat.manage');
  for (let i = 0; i < 100 && !vscode.extensions.getExtension(COPILOT)?.isActive; i++) await new Promise((resolve) => setTimeout(resolve, 200));
  const copilot = vscode.extensions.getExtension(COPILOT);
  if (!copilot?.isActive) throw new Error('the built-in GitHub Copilot Chat did not activate');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  return String((copilot.packageJSON as { version?: string }).version);
}

export async function disableNetworkBlock(): Promise<void> {
  await vscode.workspace.getConfiguration().update('http.proxy', undefined, vscode.ConfigurationTarget.Global);
}

/** A request of a subagent: its first user message holds the prompt the parent gave `runSubagent`. */
const isSubagent = (request: ModelRequest, marker: string | undefined): boolean => marker !== undefined && request.messages.some((message) => message.role === 'user' && message.text.includes(marker));

/**
 * Sends `prompt` to Copilot's agent in `mode` ("agent", or a custom agent's name) on the scripted model; resolves
 * with every request the model received once the turn is over. `subagentMarker`: text of a `runSubagent` prompt,
 * whose requests are the subagent's.
 */
export async function runTurn(
  prompt: string,
  mode: string,
  script: AgentScript,
  options: { subagentMarker?: string; timeoutMs?: number; model?: 'scripted' | 'scripted-gpt' | 'scripted-sonnet' } = {},
): Promise<ModelRequest[]> {
  const scripted = await scriptedModel();
  let finish: () => void = () => undefined;
  const over = new Promise<void>((resolve) => (finish = resolve));
  scripted.setScript(async (request) => {
    if (request.tools.length === 0) return [{ text: '<summary>A scripted conversation.</summary>' }];
    const subagent = isSubagent(request, options.subagentMarker);
    const reply = await script(request, { subagent });
    if (reply) return [reply];
    if (!subagent) setTimeout(finish, 500);
    return [{ text: 'Done.' }];
  });
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: prompt, mode, modelSelector: { vendor: 'readgate-test', id: options.model ?? 'scripted' } });
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the turn did not end: ${scripted.requests.length} requests`)), options.timeoutMs ?? 60_000));
  await Promise.race([over, timeout]);
  return [...scripted.requests];
}

/** Starts a new chat, so the next turn is a conversation of its own. */
export async function newChat(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
}

/** The main agent's requests (with tools, not a subagent's). */
export const agentRequests = (requests: readonly ModelRequest[], subagentMarker?: string): ModelRequest[] => requests.filter((request) => request.tools.length > 0 && !isSubagent(request, subagentMarker));

/** Every tool result the model received, by the tool the model called. */
export function resultsOf(requests: readonly ModelRequest[], tool: string): string[] {
  const last = requests.at(-1);
  if (!last) return [];
  const calls = new Map<string, string>();
  for (const message of last.messages) for (const call of message.toolCalls) calls.set(call.callId, call.name);
  return last.messages.flatMap((message) => message.toolResults.filter((result) => calls.get(result.callId) === tool).map((result) => result.text));
}

/** Every tool result of `tool` the model received in any request, once each, oldest first (a summary drops them from later ones). */
export function everyResultOf(requests: readonly ModelRequest[], tool: string): string[] {
  const names = new Map<string, string>();
  const results = new Map<string, string>();
  for (const request of requests) {
    for (const message of request.messages) {
      for (const call of message.toolCalls) names.set(call.callId, call.name);
      for (const result of message.toolResults) if (names.get(result.callId) === tool && !results.has(result.callId)) results.set(result.callId, result.text);
    }
  }
  return [...results.values()];
}
