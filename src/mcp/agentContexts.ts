/**
 * One ledger per agent context. One MCP connection carries a client's main agent and its subagents, and each
 * holds only what it was shown itself; when the client's hook names the context of a call (`contextNotes.ts`),
 * the call runs in that context's own guard session: `<MCP session's id>#<conversation>/<agent>`. A subagent's
 * reads never count for the main agent nor the other way round, for edits and placeholders alike. A call that
 * names no context (no hook set up, a hook that failed, another client) runs in the MCP session's own session,
 * as before. The surface owns the guard sessions; this only says which one and when they forget or end.
 */
import { type ContextNote, MAIN_AGENT, callIdOf, contextNotesDir, takeNote } from './contextNotes';
import type { ForgetMarker } from './forget';

export interface AgentContext {
  /** The guard session the context's calls run in. */
  id: string;
  /** The MCP session's own guard session id. */
  base: string;
  conversation: string;
  agent: string;
  agentType?: string;
  /** The client's set-up also hooks its compaction: what the context holds is known, placeholders are true. */
  compactionHooked: boolean;
}

export function contextSessionId(base: string, note: Pick<ContextNote, 'conversation' | 'agent'>): string {
  return `${base}#${note.conversation}/${note.agent}`;
}

/** "Claude Code 2.1.197 › subagent general-purpose", "… › main agent". */
export function contextLabel(client: string | undefined, context: Pick<AgentContext, 'agent' | 'agentType'>): string {
  const who = context.agent === MAIN_AGENT ? 'main agent' : `subagent ${context.agentType ?? context.agent.slice(0, 12)}`;
  return `${client ?? 'MCP client'} › ${who}`;
}

export interface ContextEffects {
  /** Contexts whose ledgers forget what they read (a compaction or clear). */
  cleared: AgentContext[];
  /** Contexts that ended (a subagent stopped): their sessions are dropped. */
  ended: AgentContext[];
}

export class AgentContexts {
  private readonly contexts = new Map<string, AgentContext>();

  constructor(private readonly notesDir = contextNotesDir()) {}

  /** The context a `tools/call` belongs to, told by the note its client's hook left; undefined when none. */
  route(base: string, meta: unknown): AgentContext | undefined {
    const callId = callIdOf(meta);
    const note = callId === undefined ? undefined : takeNote(callId, this.notesDir);
    if (!note) return undefined;
    const id = contextSessionId(base, note);
    const context: AgentContext = {
      id,
      base,
      conversation: note.conversation,
      agent: note.agent,
      ...(note.agentType ? { agentType: note.agentType } : {}),
      compactionHooked: note.compactionHooked,
    };
    this.contexts.set(id, context);
    return context;
  }

  /** The contexts known in one MCP session. */
  of(base: string): AgentContext[] {
    return [...this.contexts.values()].filter((context) => context.base === base);
  }

  /**
   * What a hook's marker does to the contexts of MCP sessions of its client (`bases`): one naming a
   * conversation reaches that conversation's context (the main agent's unless it names another), and ends it
   * when the context ended; one naming none (the older `--forget`) clears every context of the client.
   */
  apply(marker: ForgetMarker, bases: ReadonlySet<string>): ContextEffects {
    const effects: ContextEffects = { cleared: [], ended: [] };
    for (const context of this.contexts.values()) {
      if (!bases.has(context.base)) continue;
      if (marker.conversation !== undefined && (context.conversation !== marker.conversation || context.agent !== (marker.agent ?? MAIN_AGENT))) continue;
      if (marker.end) {
        this.contexts.delete(context.id);
        effects.ended.push(context);
      } else effects.cleared.push(context);
    }
    return effects;
  }

  /** The MCP session closed: its contexts end with it. */
  end(base: string): AgentContext[] {
    const ended = this.of(base);
    for (const context of ended) this.contexts.delete(context.id);
    return ended;
  }
}
