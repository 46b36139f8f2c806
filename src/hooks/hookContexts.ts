/**
 * Which agent context a hooked call belongs to. A client's hooks name the conversation of every call, but not
 * always the agent: Copilot's subagent calls carry their parent's session and no agent id, between the
 * subagent's `SubagentStart` and `SubagentStop`. So while exactly one subagent of a conversation is open, its
 * calls are that subagent's; while none is, the main agent's; while several are, a call cannot be placed and
 * counts for no context (its reads teach nothing, its changes are judged knowing nothing). Where a call was
 * placed is kept by its call id until its after-hook, so both ends of a call land in the same context.
 */

/** The main agent (undefined), a subagent, or no context at all. */
export type Placement = { agent: string | undefined } | { unplaced: true };

const MAX_CALLS = 512;
const MAX_OPEN = 64;

export class HookContexts {
  private readonly open = new Map<string, Set<string>>();
  private readonly calls = new Map<string, { conversation: string; placement: Placement }>();

  start(conversation: string, agent: string): void {
    const agents = this.open.get(conversation) ?? new Set<string>();
    agents.add(agent);
    this.open.delete(conversation);
    this.open.set(conversation, agents);
    while (this.open.size > MAX_OPEN) this.open.delete(this.open.keys().next().value as string);
  }

  stop(conversation: string, agent: string): void {
    const agents = this.open.get(conversation);
    agents?.delete(agent);
    if (agents?.size === 0) this.open.delete(conversation);
  }

  /** Where a call of `conversation` made now belongs. */
  place(conversation: string): Placement {
    const agents = this.open.get(conversation);
    if (!agents?.size) return { agent: undefined };
    return agents.size === 1 ? { agent: [...agents][0] } : { unplaced: true };
  }

  /** Places a call before it runs (where the input named its agent, there) and keeps where, for its after-hook. */
  placeCall(conversation: string, callId: string, agent?: string | null): Placement {
    const placement = agent === undefined ? this.place(conversation) : { agent: agent ?? undefined };
    this.calls.delete(callId);
    this.calls.set(callId, { conversation, placement });
    while (this.calls.size > MAX_CALLS) this.calls.delete(this.calls.keys().next().value as string);
    return placement;
  }

  /** Where a call was placed before it ran (removed); undefined for a call not seen before. */
  takeCall(conversation: string, callId: string): Placement | undefined {
    const known = this.calls.get(callId);
    this.calls.delete(callId);
    return known?.conversation === conversation ? known.placement : undefined;
  }
}
