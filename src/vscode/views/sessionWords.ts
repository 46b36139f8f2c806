/**
 * The words of the Sessions view's rows, essential first: VS Code's default side bar shows about 40 characters
 * of a row, so what tells rows apart (who changed a file, when a session of a client that has several ran) comes
 * before counts and versions, which the tooltip repeats in full. Pure.
 */

/** A time of day as the user's clock shows it, to the minute ("14:02"). */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
}

/** When a session ran: "since 14:02" while it is live, "14:02–14:10" once it ended. */
export function sessionWhen(startedAt: number, endedAt?: number): string {
  return endedAt === undefined ? `since ${clockTime(startedAt)}` : `${clockTime(startedAt)}–${clockTime(endedAt)}`;
}

/**
 * An agent context's name ("Claude Code 2.1.332 › subagent Explore") as a row shows it where its client's row is
 * not above it (an ended context): the context first, its client in the description.
 */
export function contextName(label: string): { name: string; client?: string } {
  const at = label.lastIndexOf(' › ');
  return at === -1 ? { name: label } : { name: label.slice(at + 3), client: label.slice(0, at) };
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * A session row's description. `when` only when another row has the same name (the same client twice, live or
 * ended): otherwise the name alone tells it apart and the time is in the tooltip. `counts` is absent for a
 * client whose every call named its agent: its agent contexts say it all.
 */
export function sessionDescription(parts: {
  /** The client of an agent context shown by its own name. */
  client?: string;
  when?: string;
  own?: boolean;
  contexts?: number;
  counts?: { files: number; reads: number; changes?: number };
}): string {
  const { counts } = parts;
  const own =
    counts &&
    [plural(counts.files, 'file'), plural(counts.reads, 'read'), ...(counts.changes === undefined ? [] : [plural(counts.changes, 'change')])].join(' · ');
  const contexts = parts.contexts ? plural(parts.contexts, 'agent context') : undefined;
  return [parts.client, parts.own ? 'your patch' : undefined, parts.when, contexts, own].filter(Boolean).join(' · ');
}

/** A seen file's row: who changed it first (when it changed), then the lines seen. */
export function fileDescription(entry: { seenText: string; totalLines: number; missing: boolean }, changed: string | undefined): string {
  const seen = entry.missing ? 'seen missing' : `lines ${entry.seenText} of ${entry.totalLines}`;
  return changed ? `${changed} · ${seen}` : seen;
}
