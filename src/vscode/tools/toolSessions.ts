/**
 * Which guard session a tool call uses, and how long tool sessions live. Keys come from `sessionKeys.ts`.
 * A call without a chat session shares nothing: it runs in a standalone session of its own, dropped after the
 * call (its statistics are summed up for the report), so its edits must name the `expectedVersion` they read.
 * While the `@readgate` participant runs a request, it binds that request's chat to its own ledger session, so
 * its tool calls (made through `lm.invokeTool` with the request's token) land exactly in the session its
 * history names. Sessions idle longer than the TTL, or beyond the most recently used `maxSessions`, are
 * dropped from the guard, so memory stays bounded in a long-lived window; a dropped session simply has to read
 * again.
 */
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import { type ErrorCode, type Guard, type GuardSession, type Refusal, type SessionOptions, type SessionStats, TOOL_NAMES } from '../../core/index';
import { STANDALONE_PREFIX, sessionKeyOf, subagentKey } from '../sessions/sessionKeys';
import { Disposable } from '../util/dispose';
import { toGuardPath } from '../util/paths';
import { addStats, emptyStats } from '../util/stats';
import { type ExpiryLimits, SessionExpiry } from './sessionExpiry';

/** Said to callers without a chat session whose change named no version, or a stale one. */
const STANDALONE_NOTE = ` (This tool call came without a chat session, so each call stands alone: pass expectedVersion with ${TOOL_NAMES.edit}, ${TOOL_NAMES.write} and ${TOOL_NAMES.multiEdit}. Extension authors can keep what was read between calls with an explicit session: the ReadGate extension API's openSession.)`;

const CHAT_BUDGET_REASON = 'Copilot agent mode writes a tool result over 8,192 characters to a file and shows the model only its path';

const NOTED_CODES: ReadonlySet<ErrorCode> = new Set(['EDIT_REQUIRES_PRIOR_READ', 'EDIT_OUTSIDE_SEEN_RANGE', 'FILE_CHANGED_SINCE_READ']);

export type ToolSessionLimits = ExpiryLimits;

export const DEFAULT_TOOL_SESSION_LIMITS: ToolSessionLimits = { ttlMs: 2 * 60 * 60 * 1000, maxSessions: 50 };

export class ToolSessions extends Disposable {
  private readonly expiry: SessionExpiry;

  constructor(
    private readonly guard: Guard,
    limits: ToolSessionLimits = DEFAULT_TOOL_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.expiry = new SessionExpiry(limits);
    const timer = setInterval(() => this.expire(), Math.min(limits.ttlMs, 10 * 60 * 1000));
    this._register(new vscode.Disposable(() => clearInterval(timer)));
  }

  private readonly bindings = new Map<string, string>();

  /**
   * Options of the sessions of chats that are not `@readgate`'s (Copilot agent mode, other participants): their
   * agent's budget, and no placeholders, as Copilot runs subagents in the parent's chat session and summarizes
   * long conversations without telling extensions, so an "unchanged" placeholder could
   * point at text the model no longer holds.
   */
  private chatOptions: SessionOptions = { dedup: false };

  /** Sets the budget of other agents' chat sessions (`readgate.tools.maxResultChars`); live sessions follow it. */
  configureChats(maxResultChars: number): void {
    const resultBudget =
      maxResultChars > 0 ? { maxChars: maxResultChars, reason: CHAT_BUDGET_REASON, howToRaise: 'the readgate.tools.maxResultChars setting' } : undefined;
    this.chatOptions = { dedup: false, resultBudget };
    for (const key of this.chatKeys) {
      if (this.guard.hasSession(key)) this.guard.session(key, { resultBudget });
      else this.chatKeys.delete(key);
    }
  }

  /** Keys of other agents' chat sessions this window has served (pruned as they are dropped). */
  private readonly chatKeys = new Set<string>();

  private standaloneStats: SessionStats | undefined;

  /**
   * Runs one tool call in its session: the chat's (or the one bound to it), a subagent's inside its chat's
   * (`subagent`: the call's `subAgentInvocationId`), or, without a chat session, a standalone session of its own
   * that is dropped when the call ends.
   */
  async run<R extends { ok: true } | Refusal>(token: unknown, work: (session: GuardSession) => Promise<R>, subagent?: string): Promise<R> {
    const chat = sessionKeyOf(token);
    const bound = chat && this.bindings.get(chat);
    const key = chat && subagent ? subagentKey(bound || chat, subagent) : chat;
    if (bound && !subagent) return work(this.forKey(bound));
    if (key) {
      this.chatKeys.add(key);
      return work(this.forKey(key, this.chatOptions));
    }
    const id = `${STANDALONE_PREFIX}${randomUUID()}`;
    const session = this.guard.session(id, { standalone: true });
    try {
      const result = await work(session);
      return result.ok || !NOTED_CODES.has(result.code) ? result : ({ ...result, message: result.message + STANDALONE_NOTE } as R);
    } finally {
      addStats((this.standaloneStats ??= emptyStats()), session.stats());
      this.guard.dropSession(id);
    }
  }

  /**
   * Reads the file a read tool call names while VS Code asks for its progress message, a round trip before it runs
   * the call (`Guard.readAhead`); nothing for input a read would refuse.
   */
  readAhead(filePath: unknown): void {
    const path = typeof filePath === 'string' ? toGuardPath(filePath) : undefined;
    if (typeof path === 'string') this.guard.readAhead(path);
  }

  /** What all tool calls without a chat session did together; undefined before the first. */
  standaloneTotals(): SessionStats | undefined {
    return this.standaloneStats && { ...this.standaloneStats, refusals: { ...this.standaloneStats.refusals } };
  }

  /**
   * Routes tool calls carrying this token's chat session to `sessionId` until the returned Disposable is
   * disposed. Undefined when the token names no chat session (those calls stand alone).
   */
  bind(token: unknown, sessionId: string): vscode.Disposable | undefined {
    const key = sessionKeyOf(token);
    if (!key) return undefined;
    this.bindings.set(key, sessionId);
    this.expiry.touch(sessionId, this.now());
    return new vscode.Disposable(() => {
      if (this.bindings.get(key) === sessionId) this.bindings.delete(key);
    });
  }

  /**
   * The session of another agent's chat (or of its subagent, `key` from `subagentKey`), as its tool calls get it: for
   * the calls of its own tools that its hooks bring (agent hooks).
   */
  forChat(key: string): GuardSession {
    this.chatKeys.add(key);
    return this.forKey(key, this.chatOptions);
  }

  /** `options` apply when the session is created (an MCP client's budget and placeholder rule). */
  forKey(key: string, options?: SessionOptions): GuardSession {
    this.expiry.touch(key, this.now());
    this.expire();
    return this.guard.session(key, options);
  }

  /** Drops sessions idle past the TTL and the least recently used beyond the cap (never the one just used). */
  expire(): void {
    for (const key of this.expiry.expired(this.now())) {
      this.guard.dropSession(key);
      this.chatKeys.delete(key);
    }
  }
}
