/**
 * Human names for guard sessions, for the view, reports and pickers. Ids stay opaque: API sessions may
 * give a label; tool sessions are named after their chat session or as the shared anonymous session.
 */
import { ANONYMOUS_SESSION } from './chat/sessionKeys';

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
    if (id === ANONYMOUS_SESSION) return 'Tool calls without a chat session';
    if (id.startsWith('chat:')) return `Chat ${shorten(id.slice('chat:'.length))}`;
    if (id.startsWith('chat-participant:')) return `@readgate chat ${id.slice('chat-participant:'.length, 'chat-participant:'.length + 8)}`;
    if (id.startsWith('api:')) return `API session ${id.slice('api:'.length, 'api:'.length + 8)}`;
    return id;
  }
}

function shorten(text: string): string {
  const tail = text.split('/').filter(Boolean).pop() ?? text;
  return tail.length > 24 ? `…${tail.slice(-23)}` : tail;
}
