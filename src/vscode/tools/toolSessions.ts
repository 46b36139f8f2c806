/**
 * Which guard session a tool call uses, and how long tool sessions live. Keys come from `sessionKeys.ts`;
 * unattributable calls share the anonymous session (no dedup). While the `@readgate` participant runs a
 * request, it binds that request's chat to its own ledger session, so its tool calls (made through
 * `lm.invokeTool` with the request's token) land exactly in the session its history names.
 * Sessions idle longer than the TTL, or beyond the most recently used `maxSessions`, are dropped from the
 * guard, so memory stays bounded in a long-lived window; a dropped session simply has to read again.
 */
import * as vscode from 'vscode';
import type { Guard, GuardSession } from '../../core/index';
import { ANONYMOUS_SESSION, sessionKeyOf } from '../chat/sessionKeys';
import { Disposable } from '../util/dispose';
import { type ExpiryLimits, SessionExpiry } from './sessionExpiry';

export type ToolSessionLimits = ExpiryLimits;

export const DEFAULT_TOOL_SESSION_LIMITS: ToolSessionLimits = { ttlMs: 2 * 60 * 60 * 1000, maxSessions: 50 };

export class ToolSessions extends Disposable {
  private readonly expiry: SessionExpiry;

  constructor(
    private readonly guard: () => Guard,
    limits: ToolSessionLimits = DEFAULT_TOOL_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.expiry = new SessionExpiry(limits);
    const timer = setInterval(() => this.expire(), Math.min(limits.ttlMs, 10 * 60 * 1000));
    this._register(new vscode.Disposable(() => clearInterval(timer)));
  }

  private readonly bindings = new Map<string, string>();

  forToken(token: unknown): GuardSession {
    const key = sessionKeyOf(token);
    return this.forKey((key && this.bindings.get(key)) ?? key ?? ANONYMOUS_SESSION);
  }

  /**
   * Routes tool calls carrying this token's chat session to `sessionId` until the returned Disposable is
   * disposed. Undefined when the token names no chat session (those calls stay anonymous).
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

  forKey(key: string): GuardSession {
    this.expiry.touch(key, this.now());
    this.expire();
    return this.guard().session(key, key === ANONYMOUS_SESSION ? { dedup: false } : {});
  }

  /** Drops sessions idle past the TTL and the least recently used beyond the cap (never the one just used). */
  expire(): void {
    for (const key of this.expiry.expired(this.now())) this.guard().dropSession(key);
  }
}
