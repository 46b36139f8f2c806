/**
 * A client's hook input as the guard's terms: what one hook call asks the window to do. Each client's adapter
 * (`copilotHooks.ts`) turns its own input into one of these and the window's answer back into its own output;
 * the judge (`hookJudge.ts`) knows only these.
 */
import type { OwnChangeCall, ReadCut, ShownOutput, ShownRange } from '../core/index';

interface InConversation {
  /** The client's conversation (its chat session). */
  conversation: string;
  /**
   * The agent context, where the client's input names it: null for the main agent, a subagent's id; absent when
   * the input does not say (the judge then places the call by the subagents open: `hookContexts.ts`).
   */
  agent?: string | null;
}

export type HookEvent =
  | (InConversation & { kind: 'readBefore'; callId: string; path: string; cut: ReadCut })
  | (InConversation & { kind: 'readAfter'; callId: string; shown?: ShownRange | ShownOutput })
  | (InConversation & { kind: 'changeBefore'; callId: string; tool: string; change: OwnChangeCall['change']; explanation?: string })
  | (InConversation & { kind: 'changeAfter'; callId: string })
  | (InConversation & { kind: 'subagentStart' | 'subagentStop'; agent: string; agentType?: string })
  /** The context (the main agent's unless `agent` names a subagent) was compacted or cleared: it forgets. */
  | (InConversation & { kind: 'compact' })
  | { kind: 'none'; why: string };

/** One client's hooks: its input read, and a refusal given back as it tells the model. */
export interface HookAdapter {
  /** The client's name for people ("GitHub Copilot"). */
  readonly label: string;
  eventOf(input: unknown): HookEvent;
  /** The output that denies the call, with `reason` (the refusal, its code first) for the model. */
  deny(reason: string): object;
  /** A sentence the refusal ends with for the model, on how this client's tools read what it names; or none. */
  readHint?: string;
}
