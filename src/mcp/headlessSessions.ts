/**
 * The guard sessions of `dist/mcp.js`: the connection's own session (for calls that name no agent context),
 * opened at the first call once the client has said who it is, so its budget is the client's; and one session
 * per agent context its hooks name (`agentContexts.ts`). Before each call, what the client's hooks asked since
 * the last one is carried out: a compaction or clear forgets, a subagent's stop ends its context.
 */
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { Guard, GuardSession } from '../core/index';
import { AgentContexts, type AgentContext, contextLabel } from './agentContexts';
import { clientPolicy } from './clientProfiles';
import { type ForgetMarker, ForgetWatch, mustForget } from './forget';
import { clientLabel } from './toolServer';

export interface HeadlessSessionOptions {
  /** The connection's own session id: unique to this server process (cli.ts), as its contexts' ids derive from it. */
  sessionId: string;
  /** Folders whose forget markers concern this server. */
  folders: () => readonly string[];
  dedup: boolean;
  placeholders: boolean;
  maxResultChars?: number;
  say(message: string): void;
}

export class HeadlessSessions {
  private client: Implementation | undefined;
  private opened = 0;
  private readonly contexts = new AgentContexts();
  private readonly forget: ForgetWatch;

  constructor(
    private readonly guard: Guard,
    private readonly options: HeadlessSessionOptions,
  ) {
    this.forget = new ForgetWatch(options.folders);
  }

  /** The client said who it is (`initialize`). */
  setClient(client: Implementation): void {
    this.client = client;
  }

  /** The session a call runs in: its agent context's, when its client's hook named one, else the connection's. */
  sessionFor(meta: unknown): GuardSession {
    if (this.opened === 0) this.opened = Date.now();
    for (const marker of this.forget.newMarkers()) this.carryOut(marker);
    const policy = clientPolicy(this.client?.name, {
      maxResultChars: this.options.maxResultChars,
      placeholders: this.options.placeholders,
      env: process.env,
      howToRaise: "the server's --max-read-chars option",
    });
    const label = clientLabel(this.client) ?? 'MCP client';
    const context = this.contexts.route(this.options.sessionId, meta);
    const placeholders = policy.placeholders || context?.compactionHooked === true;
    // Its changes are recorded as the client's (surface 'mcp', labelled with the name it gave).
    const origin = { surface: 'mcp' as const, label: context ? contextLabel(label, context) : label };
    const known = this.guard.hasSession(context?.id ?? this.options.sessionId);
    return this.guard.session(
      context?.id ?? this.options.sessionId,
      known ? {} : { dedup: this.options.dedup && placeholders, resultBudget: policy.budget, ...origin },
    );
  }

  private carryOut(marker: ForgetMarker): void {
    const ours = marker.time >= this.opened && (marker.client === undefined || marker.client.toLowerCase() === this.client?.name?.toLowerCase());
    if (this.guard.hasSession(this.options.sessionId) && mustForget(marker, this.client?.name, this.opened)) {
      this.guard.session(this.options.sessionId).clear();
      this.options.say(`forgot what ${this.client?.name ?? 'the client'} had read without naming its agent (its context was compacted or cleared)`);
    }
    const effects = this.contexts.apply(marker, new Set(ours ? [this.options.sessionId] : []));
    for (const context of effects.cleared) this.forgetContext(context);
    for (const context of effects.ended) this.guard.dropSession(context.id);
  }

  private forgetContext(context: AgentContext): void {
    if (!this.guard.hasSession(context.id)) return;
    this.guard.session(context.id).clear();
    this.options.say(`forgot what ${contextLabel(this.client?.name, context)} had read (its context was compacted or cleared)`);
  }
}
