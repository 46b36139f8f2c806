/**
 * The header of one file of a request: its path (for a move, "old path → new path"), what happens to it as a
 * badge (New file, Deleted with its line count, Moved), its line counts and "Open in diff editor"; and, for a
 * deletion or a move, the note that it is approved or rejected with the whole request. A screen reader hears
 * the same: the file's region is labelled by its path and its badge, and the arrow is read as "moved to".
 */
import type { FileView } from '../../src/vscode/approval/protocol';
import { lineStats } from './diffRows';
import { h } from './dom';
import { fileKind } from './requestWording';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A path that wraps after its slashes rather than inside a name. */
function pathWithBreaks(displayPath: string): HTMLElement {
  const element = h('span', { class: 'file-path' });
  displayPath.split(/(?<=[/\\])/).forEach((part, i) => {
    if (i) element.append(h('wbr'));
    element.append(part);
  });
  return element;
}

function title(file: FileView, id: string): HTMLElement {
  if (file.movedTo === undefined || file.deleted) return h('h3', { class: 'file-title', attrs: { id, title: file.path } }, pathWithBreaks(file.displayPath));
  return h(
    'h3',
    { class: 'file-title', attrs: { id, title: `${file.path} → ${file.movedTo}` } },
    pathWithBreaks(file.displayPath),
    h('span', { class: 'move-arrow', text: ' → ', attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'sr-only', text: ' moved to ' }),
    pathWithBreaks(file.movedToDisplay ?? file.movedTo),
  );
}

function badge(file: FileView, id: string): HTMLElement | undefined {
  switch (fileKind(file)) {
    case 'created':
      return h('span', { class: 'badge badge-new', text: 'New file', attrs: { id } });
    case 'deleted':
      return h('span', { class: 'badge badge-deleted', text: `Deleted · ${plural(file.totalOldLines, 'line')}`, attrs: { id } });
    case 'moved':
      return h('span', { class: 'badge badge-moved', text: file.hunks.length ? 'Moved and edited' : 'Moved', attrs: { id } });
    default:
      return undefined;
  }
}

/** Why a deletion or a move has no toggle of its own. */
function wholeFileNote(file: FileView): string | undefined {
  if (file.deleted) return 'A deletion is approved or rejected whole: to keep this file, reject the request.';
  if (file.movedTo === undefined) return undefined;
  return file.hunks.length
    ? 'The move is approved or rejected with the whole request: to keep the file where it is, reject the request. Its content changes below can be rejected hunk by hunk.'
    : 'The move is approved or rejected with the whole request: to keep the file where it is, reject the request.';
}

export interface RenderedFileHeader {
  /** The header, followed by the whole-file note when there is one. */
  elements: HTMLElement[];
  /** Ids that label the file's region: its title, then its badge. */
  labelledBy: string;
}

export function renderFileHeader(file: FileView, fileIndex: number): RenderedFileHeader {
  const titleId = `file-${fileIndex}-title`;
  const badgeId = `file-${fileIndex}-badge`;
  const stats = lineStats(file);
  const fileBadge = badge(file, badgeId);
  const header = h(
    'div',
    { class: 'file-header' },
    title(file, titleId),
    fileBadge,
    h(
      'span',
      { class: 'file-stats' },
      h('span', { class: 'stat-added', text: `+${stats.added.toLocaleString('en-US')}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'stat-removed', text: `−${stats.removed.toLocaleString('en-US')}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'sr-only', text: `${plural(stats.added, 'line')} added, ${plural(stats.removed, 'line')} removed` }),
    ),
    h('button', {
      class: 'button secondary open-diff',
      text: 'Open in diff editor',
      attrs: { type: 'button', 'data-action': 'open-diff', 'data-file': fileIndex, 'data-focus': `open:${fileIndex}`, 'aria-label': `Open ${file.displayPath} in the diff editor` },
    }),
  );
  const note = wholeFileNote(file);
  return {
    elements: note ? [header, h('p', { class: 'file-note', text: note })] : [header],
    labelledBy: fileBadge ? `${titleId} ${badgeId}` : titleId,
  };
}
