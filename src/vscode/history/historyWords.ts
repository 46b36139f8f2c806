/**
 * How the change history is put in words, in one place for the Agent Changes view, the file's change picker and
 * the review of a revert: where a change came from, who let it through, when, and a change's one-line title.
 * Pure (the clock's time is passed in), so the wording is tested in plain Node.
 */
import type { ChangedFile, ChangeRecord } from '../../core/index';

const SURFACES: Record<string, string> = {
  chat: '@readgate in chat',
  tool: 'a chat agent’s tool call',
  mcp: 'an MCP client',
  hook: 'an agent’s own tool, judged through its hooks',
  api: 'the extension API',
  palette: 'your own command',
};

const SHORT_SURFACES: Record<string, string> = { chat: '@readgate', tool: 'chat tools', mcp: 'MCP', hook: 'own tools', api: 'API', palette: 'you' };

/** The surface in a view's description: "MCP", "API", "you". */
export function surfaceShort(surface: string): string {
  return SHORT_SURFACES[surface] ?? surface;
}

/** "an MCP client", "the extension API", …; an unknown surface as itself. */
export function surfaceText(surface: string): string {
  return SURFACES[surface] ?? surface;
}

const APPROVERS: Record<string, string> = {
  user: 'you, in the review panel',
  grant: 'a “don’t ask again” grant for the file in this session',
  policy: 'the approval setting (readgate.approval.mode): no review was needed',
  approver: 'the library’s approve callback',
};

/** Who let the change through, for the tooltip: "Approved by you, in the review panel". */
export function approvedByText(approvedBy: string): string {
  return `Approved by ${APPROVERS[approvedBy] ?? approvedBy}`;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "14:03" today, "Mar 3, 14:03" on another day of this year, "Mar 3 2025, 14:03" before (local time). */
export function timeText(time: number, now: number): string {
  const at = new Date(time);
  const today = new Date(now);
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  if (at.toDateString() === today.toDateString()) return clock;
  const day = `${MONTHS[at.getMonth()]} ${at.getDate()}`;
  return at.getFullYear() === today.getFullYear() ? `${day}, ${clock}` : `${day} ${at.getFullYear()}, ${clock}`;
}

/** The last segment of a path, with either separator. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

const VERBS: Record<ChangedFile['kind'], string> = { create: 'Create', edit: 'Edit', delete: 'Delete', rename: 'Move' };

/** "Edit inventory.ts", "Create 2 files", "Change 3 files" (kinds mixed). */
export function filesText(files: readonly Pick<ChangedFile, 'kind' | 'path'>[]): string {
  const kinds = new Set(files.map((file) => file.kind));
  const verb = kinds.size === 1 ? VERBS[files[0].kind] : 'Change';
  return files.length === 1 ? `${verb} ${baseName(files[0].path)}` : `${verb} ${files.length} files`;
}

/** The first line of a text, at most `max` characters (an ellipsis when cut). */
export function firstLine(text: string, max = 80): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/**
 * A change's title: the agent's explanation (its first line) when it gave one, else what it did to which
 * files; a revert says so.
 */
export function changeTitle(record: Pick<ChangeRecord, 'explanation' | 'files' | 'revertOf'>): string {
  const given = record.explanation ? firstLine(record.explanation) : '';
  if (record.revertOf !== undefined) return given || `Revert: ${filesText(record.files)}`;
  return given || filesText(record.files);
}

/** What happens to one file of a change: "edited", "created", "deleted", "moved from old.ts". */
export function fileKindText(file: Pick<ChangedFile, 'kind' | 'from'>): string {
  switch (file.kind) {
    case 'create':
      return 'created';
    case 'delete':
      return 'deleted';
    case 'rename':
      return `moved from ${baseName(file.from ?? '')}`;
    default:
      return 'edited';
  }
}

/** "inventory.ts", "3 files": where a change went, for a revert's second line. */
function whereText(files: readonly Pick<ChangedFile, 'path'>[]): string {
  return files.length === 1 ? baseName(files[0].path) : `${files.length} files`;
}

/** The change a chain of reverts goes back to, and how many reverts lie between (0: `record` is no revert). */
function chainOf(record: ChangeRecord, lookup: (id: string) => ChangeRecord | undefined): { original: ChangeRecord; depth: number } | undefined {
  let original = record;
  let depth = 0;
  // Each record reverts an older one, so the walk ends; the bound guards against damaged records.
  while (original.revertOf !== undefined && depth < 1000) {
    const next = lookup(original.revertOf);
    if (!next) return undefined;
    original = next;
    depth++;
  }
  return { original, depth };
}

/**
 * What a revert of one change says it does (its explanation in the review panel and on record). The first line
 * is its title in the Agent Changes view, so the essential words come first; the second says whose change, when
 * and where. A revert of a revert is named by what it restores ("Restore “…”"), never "Revert “Revert …”";
 * `lookup` finds the records a chain of reverts names (a revert whose chain is not on record says when it was).
 */
export function revertChangeText(record: ChangeRecord, now: number, lookup: (id: string) => ChangeRecord | undefined = () => undefined): string {
  const chain = chainOf(record, lookup);
  if (!chain) {
    return [`Undo the revert of ${timeText(record.time, now)}`, record.explanation ? firstLine(record.explanation, 200) : ''].filter(Boolean).join('\n');
  }
  const { original, depth } = chain;
  const title = `“${changeTitle(original)}”`;
  const change = `the change ${original.label} made at ${timeText(original.time, now)} to ${whereText(original.files)}`;
  if (depth === 0) return `Revert ${title}\n${change.charAt(0).toUpperCase()}${change.slice(1)}`;
  const undone = `${depth % 2 ? 'revert' : 'restore'} of ${timeText(record.time, now)}`;
  return depth % 2 ? `Restore ${title}\nUndoes the ${undone}: brings back ${change}` : `Revert ${title} again\nUndoes the ${undone}: reverts ${change} again`;
}

/** What a revert of a whole session says it does (first line: its title in the view). */
export function revertSessionText(label: string, changes: readonly Pick<ChangeRecord, 'files'>[]): string {
  const files = new Set(changes.flatMap((change) => change.files.map((file) => file.path)));
  return `Revert ${label}’s session\nAll ${changes.length} change${changes.length === 1 ? '' : 's'} it made to ${files.size} file${files.size === 1 ? '' : 's'}, newest first`;
}

/** What a revert of one file to before a session says it does (`shown`: the file's short name). */
export function revertFileText(shown: string, label: string, changes: number): string {
  return `Revert ${baseName(shown)} to before ${label}\n${shown} as it was before ${label}’s session (${changes} change${changes === 1 ? '' : 's'} to it); its other files stay as they are`;
}
