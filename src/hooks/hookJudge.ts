/**
 * The window's side of an agent hook call: the client's input through its adapter (`HookEvent`), the agent
 * context it belongs to (`HookContexts`), then the guard session's own-tool calls (`beforeOwnRead` …
 * `afterOwnChange`). Only a refused change has an answer for the client: its denial, with ReadGate's refusal
 * (code first) as the reason the model reads; everything else is allowed silently. A change that waits for the
 * user's review keeps the hook waiting (`reviewStarted`), for at most the review limit: then it is refused.
 */
import type { GuardSession, Refusal } from '../core/index';
import type { HookAdapter, HookEvent } from './hookEvents';
import { HookContexts, type Placement } from './hookContexts';
import { HOOK_REVIEW_MS, HOOK_SETTLE_MS } from './hookProtocol';

/** The guard sessions of the clients' agent contexts, as the window keeps them. */
export interface HookSessions {
  /** The session of a conversation's main agent (`agent` undefined) or one of its subagents. */
  session(client: string, conversation: string, agent: string | undefined): GuardSession;
  /** A session that knows nothing, for calls no agent context can be told for (it is cleared before each). */
  unplaced(client: string, conversation: string): GuardSession;
  /** A context (the main agent's, or `agent`'s) was compacted or cleared: it forgets what it was shown. */
  forget(client: string, conversation: string, agent?: string): void;
  /** A subagent ended: its session goes. */
  end(client: string, conversation: string, agent: string): void;
  /** A subagent started (its session is made on its first call). */
  started?(client: string, conversation: string, agent: string, agentType: string | undefined): void;
}

export interface HookLog {
  /** `warn`: something the user should be able to find (a tool that wrote other than what was allowed). */
  (message: string, data: Record<string, unknown>, level?: 'debug' | 'warn'): void;
}

/** Refusals whose next step is to read: the client's read tool is named. */
const READ_CODES = new Set(['EDIT_REQUIRES_PRIOR_READ', 'EDIT_OUTSIDE_SEEN_RANGE']);

export class HookJudge {
  private readonly contexts = new HookContexts();
  /** The hooks of changes being judged, by guard session: told when the user starts reviewing. */
  private readonly judging = new Map<string, Set<(ms: number) => void>>();

  constructor(
    private readonly adapters: Readonly<Record<string, HookAdapter>>,
    private readonly sessions: HookSessions,
    private readonly log: HookLog = () => undefined,
    private readonly reviewMs = HOOK_REVIEW_MS,
    /** How long an after-hook waits for the tool's write to land (well within the hook's answer limit). */
    private readonly settleMs = HOOK_SETTLE_MS,
  ) {}

  /** A change of `sessionId` waits for the user: its hook keeps waiting, up to the review limit. */
  reviewStarted(sessionId: string): void {
    for (const wait of this.judging.get(sessionId) ?? []) wait(this.reviewMs);
  }

  async handle(request: { client: string; input: unknown }, wait: (ms: number) => void, signal: AbortSignal): Promise<object | undefined> {
    const adapter = this.adapters[request.client];
    if (!adapter) return undefined;
    const event = adapter.eventOf(request.input);
    if (event.kind === 'none') {
      this.log('[hooks] nothing to judge', { client: request.client, why: event.why });
      return undefined;
    }
    return this.carryOut(request.client, adapter, event, wait, signal);
  }

  private sessionOf(client: string, conversation: string, placement: Placement): GuardSession {
    if ('unplaced' in placement) {
      const session = this.sessions.unplaced(client, conversation);
      session.clear();
      return session;
    }
    return this.sessions.session(client, conversation, placement.agent);
  }

  private async carryOut(
    client: string,
    adapter: HookAdapter,
    event: Exclude<HookEvent, { kind: 'none' }>,
    wait: (ms: number) => void,
    signal: AbortSignal,
  ): Promise<object | undefined> {
    switch (event.kind) {
      case 'readBefore': {
        const placement = this.contexts.placeCall(event.conversation, event.callId, event.agent);
        // A read no context can be told for teaches nothing.
        if (!('unplaced' in placement)) {
          await this.sessionOf(client, event.conversation, placement).beforeOwnRead({ callId: event.callId, path: event.path, cut: event.cut });
        }
        return undefined;
      }
      case 'readAfter': {
        const placement = this.contexts.takeCall(event.conversation, event.callId);
        if (placement && !('unplaced' in placement)) {
          const observed = await this.sessionOf(client, event.conversation, placement).afterOwnRead(event.callId, event.shown);
          this.log('[hooks] read observed', { client, ...observed });
        }
        return undefined;
      }
      case 'changeBefore':
        return this.judge(client, adapter, event, wait, signal);
      case 'changeAfter': {
        const placement = this.contexts.takeCall(event.conversation, event.callId);
        if (placement) {
          const recorded = await this.sessionOf(client, event.conversation, placement).afterOwnChange(event.callId, { settleMs: this.settleMs });
          const other = recorded.ok ? recorded.files.filter((file) => file.outcome === 'different') : [];
          if (other.length) {
            this.log(
              "[hooks] the agent's tool wrote something other than what ReadGate allowed; recorded as it is, and not counted as seen",
              { client, files: other.map((file) => file.path) },
              'warn',
            );
          } else this.log('[hooks] change recorded', { client, ...recorded });
        }
        return undefined;
      }
      case 'subagentStart':
        this.contexts.start(event.conversation, event.agent);
        this.sessions.started?.(client, event.conversation, event.agent, event.agentType);
        return undefined;
      case 'subagentStop':
        this.contexts.stop(event.conversation, event.agent);
        this.sessions.end(client, event.conversation, event.agent);
        return undefined;
      case 'compact':
        this.sessions.forget(client, event.conversation, event.agent ?? undefined);
        return undefined;
    }
  }

  private async judge(
    client: string,
    adapter: HookAdapter,
    event: Extract<HookEvent, { kind: 'changeBefore' }>,
    wait: (ms: number) => void,
    signal: AbortSignal,
  ): Promise<object | undefined> {
    const placement = this.contexts.placeCall(event.conversation, event.callId, event.agent);
    const session = this.sessionOf(client, event.conversation, placement);
    const deadline = AbortSignal.timeout(this.reviewMs);
    const waits = this.judging.get(session.id) ?? new Set<(ms: number) => void>();
    this.judging.set(session.id, waits.add(wait));
    try {
      const { callId, tool, change } = event;
      const judged = await session.judgeOwnChange({
        callId,
        tool,
        change,
        ...(event.explanation ? { explanation: event.explanation } : {}),
        signal: AbortSignal.any([signal, deadline]),
      });
      if (judged.ok) return undefined;
      this.log('[hooks] change refused', { client, tool, code: judged.code });
      return adapter.deny(this.reason(adapter, judged, deadline.aborted && !signal.aborted));
    } finally {
      waits.delete(wait);
      if (waits.size === 0) this.judging.delete(session.id);
    }
  }

  private reason(adapter: HookAdapter, refusal: Refusal, reviewTimedOut: boolean): string {
    if (refusal.code === 'CANCELLED' && reviewTimedOut) {
      return `REJECTED_BY_USER: the change waited ${Math.round(this.reviewMs / 60_000)} minutes for the user's review without a decision; nothing was written. Ask the user whether to make it, then try again.`;
    }
    const hint = adapter.readHint && READ_CODES.has(refusal.code) ? ` ${adapter.readHint}` : '';
    return `${refusal.code}: ${refusal.message}${hint}`;
  }
}
