/**
 * What a test writes to play the model: a function from the conversation so far to the next reply. Tools are
 * named as their servers name them (`readgate_read`, `Agent`); the CLI adapter finds the name the CLI gave the
 * tool (`mcp__readgate__readgate_read`) and loads deferred tools first when the CLI hides them behind a search
 * tool, so scripts read the same for every CLI.
 */
import type { Conversation, ToolResultSeen } from './conversation';

/**
 * Which conversation a request belongs to: the agent the test prompted, a subagent it spawned, or neither; or
 * the CLI's request to summarize one of the first two when it compacts it (answer with the summary's text).
 */
export type AgentContext = { kind: 'main' } | { kind: 'subagent'; prompt: string } | { kind: 'side' } | { kind: 'compaction'; of: AgentContext };

export interface ScriptCall {
  tool: string;
  input: Record<string, unknown>;
}

/**
 * `inputTokens`: the prompt size the reply's usage reports (Anthropic dialect; default: the request's size / 4).
 * A large figure makes Claude Code believe its context is nearly full, so it compacts before its next request.
 */
export type Reply = ({ text: string } | { calls: ScriptCall[] }) & { inputTokens?: number };

export interface Turn {
  context: AgentContext;
  /** How many replies of the script this conversation holds (0 for its first request; after a compaction, those kept). */
  step: number;
  /** How many times this conversation was compacted so far. */
  compactions: number;
  conversation: Conversation;
  /** Results of the script's previous reply, in call order. */
  lastResults: ToolResultSeen[];
}

/** May answer later (a script that prepares a file before its next call). */
export type Script = (turn: Turn) => Reply | Promise<Reply>;

export const say = (text: string): Reply => ({ text });
export const call = (tool: string, input: Record<string, unknown>): Reply => ({ calls: [{ tool, input }] });

/** A script that gives `replies` in order in one conversation, then ends it with "Done.". */
export function steps(replies: (Reply | Script)[]): Script {
  return (turn) => {
    const next = replies[turn.step];
    if (next === undefined) return say('Done.');
    return typeof next === 'function' ? next(turn) : next;
  };
}

/** One script for the main agent and one per subagent prompt (matched by a marker it contains). */
export function byContext(main: Script, subagents: Record<string, Script> = {}): Script {
  return (turn) => {
    if (turn.context.kind === 'main') return main(turn);
    if (turn.context.kind === 'subagent') {
      const prompt = turn.context.prompt;
      const marker = Object.keys(subagents).find((key) => prompt.includes(key));
      if (marker) return subagents[marker](turn);
    }
    return say('Done.');
  };
}
