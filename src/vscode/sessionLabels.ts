/**
 * Human names for guard sessions, for the view, reports and pickers. Ids stay opaque: API sessions may
 * give a label; tool sessions are named after their chat session, or as a call without one.
 */
import { isStandaloneSession } from './tools/sessionKeys';

/** The statistics row that sums up the tool calls without a chat session (each had a session of its own). */
export const STANDALONE_CALLS_LABEL = 'Tool calls without a chat session';

export class SessionLabels {
  private readonly labels = new Map<string, string>();

  set(id: string, label: string | undefined): void {
    if (label) this.labels.set(id, label);
  }

  delete(id: string): void {
    this.labels.delete(id);
  }

  labelOf(id: string): string {
    const given = this.labels.get(id);
    if (given) return given;
    if (isStandaloneSession(id)) return 'A tool call without a chat session';
    if (id.startsWith('chat:')) return `Chat ${shorten(id.slice('chat:'.length))}`;
    if (id.startsWith('chat-participant:')) return `@readgate chat ${id.slice('chat-participant:'.length, 'chat-participant:'.length + 8)}`;
    if (id.startsWith('mcp:')) return `MCP client ${id.slice('mcp:'.length, 'mcp:'.length + 8)}`;
    if (id.startsWith('api:')) return `API session ${id.slice('api:'.length, 'api:'.length + 8)}`;
    return id;
  }
}

function shorten(text: string): string {
  const tail = text.split('/').filter(Boolean).pop() ?? text;
  return tail.length > 24 ? `…${tail.slice(-23)}` : tail;
}
