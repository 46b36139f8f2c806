/**
 * The conflicts of a revert under review: for each, the file and the place ("Lines 12–14"), what happened in a
 * sentence, and both sides of the lines: what is there now (kept if the user takes the merged parts) and what
 * the revert wanted there. Shown above the decision bar, so the user reads them before "Take the Merged Parts".
 *
 * The sides are two tables with a caption each, numbered as in the file now; the wanted lines have no numbers
 * of their own (they are not in the file). Text only through `textContent`: file lines are untrusted.
 */
import type { ConflictRangeView, ConflictView } from '../../src/vscode/approval/protocol';
import { h } from './dom';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "3 conflicts in 2 files", "1 conflict" (the heading is set in capitals, so it names no path: each conflict does). */
export function conflictsTitle(conflicts: readonly ConflictView[]): string {
  const files = new Set(conflicts.map((conflict) => conflict.path));
  return files.size > 1 ? `${plural(conflicts.length, 'conflict')} in ${plural(files.size, 'file')}` : plural(conflicts.length, 'conflict');
}

/** What an empty side says: no lines now, or (the revert wanting no lines) that it wanted the lines now removed. */
function emptyText(kind: 'now' | 'wanted', range: ConflictRangeView): string {
  if (kind === 'now') return 'No lines here now';
  return range.now.length ? `To remove ${range.now.length === 1 ? 'this line' : 'these lines'}` : 'No lines';
}

function side(kind: 'now' | 'wanted', caption: string, r: ConflictRangeView, id: string): HTMLElement {
  const table = h('table', { class: `conflict-lines conflict-${kind}`, attrs: { id } }, h('caption', { class: 'conflict-side-label', text: caption }));
  const body = h('tbody', {});
  const lines = (kind === 'now' ? r.now : r.wanted) ?? [];
  // The wanted lines are not in the file: they have no numbers of their own.
  const firstLine = kind === 'now' ? r.start : undefined;
  if (lines.length === 0) body.append(h('tr', {}, h('td', { class: 'conflict-empty', attrs: { colspan: 2 }, text: emptyText(kind, r) })));
  lines.forEach((line, i) => {
    body.append(h('tr', {}, h('td', { class: 'num', text: firstLine === undefined ? '' : String(firstLine + i) }), h('td', { class: 'code', text: line })));
  });
  table.append(body);
  return table;
}

function range(range: ConflictRangeView, id: string): HTMLElement {
  const sides = [side('now', 'Now: stays as it is', range, `${id}-now`)];
  if (range.wanted) sides.push(side('wanted', 'The revert wanted', range, `${id}-wanted`));
  return h('div', { class: 'conflict-range', attrs: { role: 'group', 'aria-label': range.where } }, h('p', { class: 'conflict-where', text: range.where }), h('div', { class: 'conflict-sides' }, ...sides));
}

export function renderConflicts(conflicts: readonly ConflictView[]): HTMLElement {
  const section = h(
    'section',
    { class: 'conflicts', attrs: { 'aria-labelledby': 'conflicts-title' } },
    h('h2', { class: 'section-label conflicts-title', attrs: { id: 'conflicts-title' }, text: conflictsTitle(conflicts) }),
    h('p', {
      class: 'conflicts-intro',
      text: 'Later changes touch what this revert would restore. Take the merged parts to revert everything else; the lines below stay as they are now. Cancel to write nothing.',
    }),
  );
  conflicts.forEach((conflict, c) => {
    const titleId = `conflict-${c}-title`;
    section.append(
      h(
        'div',
        { class: 'conflict', attrs: { role: 'group', 'aria-labelledby': titleId, 'data-conflict-index': c } },
        h('h3', { class: 'conflict-title', attrs: { id: titleId, title: conflict.path }, text: conflict.displayPath }),
        h('p', { class: 'conflict-summary', text: conflict.summary }),
        ...conflict.ranges.map((r, i) => range(r, `conflict-${c}-${i}`)),
      ),
    );
  });
  return section;
}
