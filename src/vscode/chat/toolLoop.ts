/**
 * The `@readgate` tool-calling loop: send the conversation and the offered tools to the user's chosen model,
 * stream its text, invoke the tools it calls through `vscode.lm.invokeTool` with the request's invocation token
 * (so the chat shows each call and ReadGate's tools use this chat's ledger), feed the results back, and repeat
 * until the model answers without calling a tool, the round cap is reached, or the request is cancelled.
 *
 * Only the offered tools run. Tool results pass through the oversized-result gate (saved to a file, not cut) before the
 * model sees them; a refusal comes back to the model as its message (code first) so it can take the step the
 * message names.
 */
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { TOOL_NAMES, type ToolResultStore } from '../../core/index';
import type { Log } from '../log';
import { toGuardPath } from '../util/paths';
import { fromVirtualPath } from '../util/virtualPaths';
import type { ToolCallRecord, ToolRound } from './chatTurns';

export interface LoopContext {
  request: vscode.ChatRequest;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  sessionId: string;
  messages: vscode.LanguageModelChatMessage[];
  tools: vscode.LanguageModelChatTool[];
  maxRounds: number;
  toolResults: ToolResultStore;
  log: Log;
}

export type LoopOutcome =
  | { kind: 'done'; rounds: ToolRound[] }
  | { kind: 'cancelled'; rounds: ToolRound[] }
  | { kind: 'roundCap'; rounds: ToolRound[] }
  | { kind: 'modelError'; rounds: ToolRound[]; message: string };

const OWN_TOOLS: ReadonlySet<string> = new Set(Object.values(TOOL_NAMES));

function resultText(result: vscode.LanguageModelToolResult): { text: string; onlyText: boolean } {
  let text = '';
  let onlyText = true;
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else onlyText = false;
  }
  return { text, onlyText };
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /^[A-Z_]+: /.test(message) ? message : `ERROR: ${message}`;
}

/** The file a call of one of our tools names, for the response's references. */
function filesOf(call: ToolCallRecord): vscode.Uri[] {
  if (!OWN_TOOLS.has(call.name) || typeof call.input !== 'object' || call.input === null) return [];
  const input = call.input as { filePath?: unknown; edits?: { filePath?: unknown }[] };
  const paths = call.name === TOOL_NAMES.multiEdit && Array.isArray(input.edits) ? input.edits.map((edit) => edit?.filePath) : [input.filePath];
  const uris: vscode.Uri[] = [];
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  for (const path of paths) {
    const resolved = typeof path === 'string' ? toGuardPath(path) : undefined;
    if (typeof resolved !== 'string' || resolved.startsWith('~')) continue;
    if (nodePath.isAbsolute(resolved)) uris.push(fromVirtualPath(resolved) ?? vscode.Uri.file(resolved));
    else if (folder) uris.push(vscode.Uri.joinPath(folder, resolved));
  }
  return uris;
}

type Cancelled = { kind: 'cancelled' };
const CANCELLED: Cancelled = { kind: 'cancelled' };

/** What the model said in one round: its text (streamed to the chat as it comes) and the tools it called. */
type ModelAnswer = { kind: 'answer'; text: string; calls: vscode.LanguageModelToolCallPart[] } | Cancelled | { kind: 'modelError'; message: string };

async function askModel(context: LoopContext, index: number): Promise<ModelAnswer> {
  const { request, stream, token, messages } = context;
  let text = '';
  const calls: vscode.LanguageModelToolCallPart[] = [];
  if (index > 0) stream.progress(`Continuing with ${request.model.name}…`);
  try {
    const response = await request.model.sendRequest(
      messages,
      { tools: context.tools, justification: "@readgate works on your files with ReadGate's guarded tools." },
      token,
    );
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        text += part.value;
        stream.markdown(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push(part);
      }
    }
  } catch (error) {
    if (token.isCancellationRequested) return CANCELLED;
    return { kind: 'modelError', message: error instanceof Error ? error.message : String(error) };
  }
  return token.isCancellationRequested ? CANCELLED : { kind: 'answer', text, calls };
}

/** A call's result for later turns (`text`) and the content the model gets back. */
type CallResult = { text: string; content: unknown[] };

/** Runs one offered tool; its output passes the oversized-result gate, a refusal or failure becomes its message. */
async function invokeCall(context: LoopContext, call: vscode.LanguageModelToolCallPart): Promise<CallResult | Cancelled> {
  const { request, token, log, sessionId } = context;
  try {
    const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
    const { text: output, onlyText } = resultText(result);
    // Rich parts (e.g. prompt-tsx) go to the model as they are; only their text is kept for later turns.
    if (!onlyText) return { text: output || '[non-text tool output]', content: result.content };
    const gated = await context.toolResults.persist(sessionId, call.callId, call.name, output);
    if (gated.persisted) log.info('[chat] oversized tool result saved', { session: sessionId, tool: call.name, callId: call.callId, bytes: gated.bytes });
    else if (gated.reason === 'budget' || gated.reason === 'write-failed') {
      log.warn('[chat] oversized tool result not saved', {
        session: sessionId,
        tool: call.name,
        callId: call.callId,
        reason: gated.reason,
        detail: gated.detail,
      });
    }
    return { text: gated.text, content: [new vscode.LanguageModelTextPart(gated.text)] };
  } catch (error) {
    if (token.isCancellationRequested) return CANCELLED;
    const text = errorText(error);
    log.debug('[chat] tool call refused or failed', { session: sessionId, tool: call.name, callId: call.callId, code: text.split(':')[0] });
    return { text, content: [new vscode.LanguageModelTextPart(text)] };
  }
}

/** Adds the files a call names to the response's references, each once a request. */
function referenceFiles(stream: vscode.ChatResponseStream, referenced: Set<string>, call: ToolCallRecord): void {
  for (const uri of filesOf(call)) {
    if (referenced.has(uri.toString())) continue;
    referenced.add(uri.toString());
    stream.reference(uri);
  }
}

/** Runs a round's calls in order, recording each result in `round`; the parts that answer them, unless cancelled. */
async function runCalls(
  context: LoopContext,
  round: ToolRound,
  calls: vscode.LanguageModelToolCallPart[],
  referenced: Set<string>,
): Promise<vscode.LanguageModelToolResultPart[] | Cancelled> {
  const offered = new Set(context.tools.map((tool) => tool.name));
  const resultParts: vscode.LanguageModelToolResultPart[] = [];
  for (const call of calls) {
    if (context.token.isCancellationRequested) return CANCELLED;
    if (!offered.has(call.name)) {
      // Only offered tools run: any other tool (one that writes files, say) would bypass the guard and review.
      round.results[call.callId] = `ERROR: the tool ${call.name} is not available here. Use ${[...offered].join(', ')}.`;
      resultParts.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(round.results[call.callId])]));
      context.log.warn('[chat] the model called a tool it was not offered; refused', { session: context.sessionId, tool: call.name });
      continue;
    }
    const result = await invokeCall(context, call);
    if ('kind' in result) return result;
    round.results[call.callId] = result.text;
    referenceFiles(
      context.stream,
      referenced,
      round.calls.find((c) => c.callId === call.callId)!,
    );
    resultParts.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
  }
  return resultParts;
}

export async function runToolLoop(context: LoopContext): Promise<LoopOutcome> {
  const { messages } = context;
  const rounds: ToolRound[] = [];
  const referenced = new Set<string>();
  for (let index = 0; index < context.maxRounds; index++) {
    if (context.token.isCancellationRequested) return { kind: 'cancelled', rounds };
    const answer = await askModel(context, index);
    if (answer.kind === 'cancelled') return { kind: 'cancelled', rounds };
    if (answer.kind === 'modelError') return { kind: 'modelError', rounds, message: answer.message };
    const { text, calls } = answer;
    const round: ToolRound = { text, calls: calls.map((call) => ({ callId: call.callId, name: call.name, input: call.input })), results: {} };
    rounds.push(round);
    if (calls.length === 0) return { kind: 'done', rounds };
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
    const resultParts = await runCalls(context, round, calls, referenced);
    if (!Array.isArray(resultParts)) return { kind: 'cancelled', rounds };
    messages.push(vscode.LanguageModelChatMessage.User(resultParts));
  }
  return { kind: 'roundCap', rounds };
}
