/**
 * Human names for guard sessions, for the view, reports and pickers. Ids stay opaque: API sessions may
 * give a label; tool sessions are named after their chat session, or as a call without one.
 */
import { API_PREFIX, CHAT_PREFIX, isStandaloneSession, MCP_PREFIX, PARTICIPANT_PREFIX, SUBAGENT_SEPARATOR } from './sessionKeys';

/** The statistics row that sums up the tool calls without a chat session (each had a session of its own). */
export const STANDALONE_CALLS_LABEL = 'Tool calls without a chat session';

export class SessionLabels {
  private readonly labels = new Map<string, string>();
  /** An agent context's session → the MCP session it belongs to (the Sessions view nests them). */
  private readonly parents = new Map<string, string>();

  /** `parent`: the session this one is a part of (an agent context of an MCP session). */
  set(id: string, label: string | undefined, parent?: string): void {
    if (label) this.labels.set(id, label);
    if (parent) this.parents.set(id, parent);
  }

  has(id: string): boolean {
    return this.labels.has(id);
  }

  delete(id: string): void {
    this.labels.delete(id);
    this.parents.delete(id);
  }

  /** The session this one is a part of: an MCP session for an agent context, a chat for its subagent. */
  parentOf(id: string): string | undefined {
    const subagent = id.indexOf(SUBAGENT_SEPARATOR);
    return this.parents.get(id) ?? (subagent > 0 ? id.slice(0, subagent) : undefined);
  }

  labelOf(id: string): string {
    const given = this.labels.get(id);
    if (given) return given;
    const subagent = id.indexOf(SUBAGENT_SEPARATOR);
    if (subagent > 0) return `${this.labelOf(id.slice(0, subagent))} › subagent`;
    if (isStandaloneSession(id)) return 'A tool call without a chat session';
    if (id.startsWith(CHAT_PREFIX)) return `Chat ${shorten(id.slice(CHAT_PREFIX.length))}`;
    if (id.startsWith(PARTICIPANT_PREFIX)) return `@readgate chat ${idStart(id, PARTICIPANT_PREFIX)}`;
    if (id.startsWith(MCP_PREFIX)) return `MCP client ${idStart(id, MCP_PREFIX)}`;
    if (id.startsWith(API_PREFIX)) return `API session ${idStart(id, API_PREFIX)}`;
    return id;
  }
}

/** The first 8 characters after the prefix (a uuid's first group). */
function idStart(id: string, prefix: string): string {
  return id.slice(prefix.length, prefix.length + 8);
}

function shorten(text: string): string {
  const tail = text.split('/').filter(Boolean).pop() ?? text;
  return tail.length > 24 ? `…${tail.slice(-23)}` : tail;
}
