/**
 * The one translation between guard results and the tool surface: content becomes a
 * `LanguageModelTextPart`; a refusal becomes a thrown `Error` whose message starts with its code, so any
 * caller (Copilot shows "ERROR while calling tool: <message>") sees the code and the agent's next step.
 * Cancellation tokens become AbortSignals for the guard.
 */
import * as vscode from 'vscode';
import { type CallBudget, type GuardSession, parseToolCall, type Refusal, type ToolName } from '../../core/index';
import type { AgentProblems } from '../problems/agentProblems';
import { subagentOf } from '../sessions/sessionKeys';
import { toGuardPath } from '../util/paths';
import { showVirtualPaths } from '../util/virtualPaths';
import type { ToolSessions } from './toolSessions';

export function refusalError(refusal: Refusal): Error {
  const error = new Error(`${refusal.code}: ${showVirtualPaths(refusal.message)}`);
  error.name = refusal.code;
  return error;
}

export function toToolResult(result: { ok: true; text: string } | Refusal): vscode.LanguageModelToolResult {
  if (!result.ok) throw refusalError(result);
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(showVirtualPaths(result.text))]);
}

/** Characters a token, as the budgets of clients that count tokens are turned into characters. */
const CHARS_PER_TOKEN = 4;

/**
 * The budget VS Code gave this call (Copilot passes `tokenizationOptions.tokenBudget`): a read stays within it,
 * at four characters a token, as well as within the session's budget.
 */
export function callBudget(options: { tokenizationOptions?: { tokenBudget?: unknown } }): CallBudget | undefined {
  const tokens = options.tokenizationOptions?.tokenBudget;
  return typeof tokens === 'number' && Number.isFinite(tokens) && tokens > 0 ? { maxChars: Math.max(1, Math.floor(tokens * CHARS_PER_TOKEN)) } : undefined;
}

/** What the tools run their calls with: the sessions, and the problems a change introduced (absent in tests of the tools alone). */
export interface GuardedCalls {
  sessions: ToolSessions;
  problems?: AgentProblems;
}

/**
 * Checks a tool call's input (a refusal is thrown before any session is touched), then runs it in its session;
 * a change's result ends with the problems it introduced.
 */
export async function invokeGuarded(
  calls: GuardedCalls,
  name: ToolName,
  options: { input: unknown; toolInvocationToken: unknown; tokenizationOptions?: { tokenBudget?: unknown } },
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  const call = parseToolCall(name, options.input, (filePath) => toGuardPath(filePath));
  if (!call.ok) throw refusalError(call);
  const budget = callBudget(options);
  const run = (session: GuardSession) => withAbortSignal(token, (signal) => call.run(session, signal, budget));
  const { problems } = calls;
  const work = (session: GuardSession) => (problems ? problems.run(session.id, session.maxResultChars(), () => run(session)) : run(session));
  return toToolResult(await calls.sessions.run(options.toolInvocationToken, work, subagentOf(options)));
}

/** Runs `work` with an AbortSignal that follows `token`. */
export async function withAbortSignal<T>(token: vscode.CancellationToken | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  if (token?.isCancellationRequested) controller.abort();
  const subscription = token?.onCancellationRequested(() => controller.abort());
  try {
    return await work(controller.signal);
  } finally {
    subscription?.dispose();
  }
}

/** A short, relative name for progress messages. */
export function shortName(filePath: unknown): string {
  if (typeof filePath !== 'string' || filePath === '') return 'a file';
  const relative = vscode.workspace.asRelativePath(filePath, false);
  return relative.length > 80 ? `…${relative.slice(-79)}` : relative;
}
