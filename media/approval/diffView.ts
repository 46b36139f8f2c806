/**
 * Renders one file of a request: its header (path, "New file" badge, line counts, "Open in diff editor") and its
 * hunks, inline or side by side, with line numbers, unchanged regions between hunks collapsed to an
 * "N unchanged lines" row, and a per-hunk Reject toggle (`aria-pressed`).
 *
 * The diff is an ARIA table: each hunk is a row group whose first row holds its toggle; every line is a row of
 * cells (old number, new number, text; or old number, old text, new number, new text). Added/removed is shown
 * by colour and by a +/− sign with alternative text, never by colour alone.
 *
 * Big files stay responsive: `renderFile` returns the skeleton at once (headers, toggles, and an empty chunk per
 * 200 rows whose height is reserved from its row count), plus one task per chunk that fills its rows. The page
 * runs the tasks through `ChunkScheduler`, so the first screen paints after a few chunks and the rest fill in
 * frame by frame without moving what is already on screen. Filled chunks use `content-visibility: auto`, so
 * off-screen rows cost no layout or paint later.
 *
 * Buttons carry `data-action` and indexes; the page handles clicks by delegation. Nothing here posts messages.
 */
import type { FileView, HunkView } from '../../src/vscode/approval/protocol';
import { gutterDigits, inlineRows, lineStats, sideBySideRows, unchangedRegions, type InlineRow, type Layout, type SideCell, type SideBySideRow, type Span } from './diffRows';
import { h } from './dom';
import type { Task } from './chunkScheduler';

export const ROWS_PER_CHUNK = 200;

export interface FileRenderOptions {
  fileIndex: number;
  layout: Layout;
  isRejected(hunkIndex: number): boolean;
}

export interface RenderedFile {
  element: HTMLElement;
  /** Fill the reserved chunks with rows, in document order. */
  tasks: Task[];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function rangeLabel(hunk: HunkView): string {
  const side = (start: number, count: number) => `${count === 0 ? start - 1 : start}${count === 1 ? '' : `,${count}`}`;
  return `@@ -${side(hunk.oldStart, hunk.oldLines)} +${side(hunk.newStart, hunk.newLines)} @@`;
}

function linesLabel(start: number, count: number): string {
  if (count === 0) return 'none';
  return count === 1 ? `${start}` : `${start}–${start + count - 1}`;
}

export function hunkToggleLabel(file: FileView, position: number): string {
  return `Reject hunk ${position + 1} of ${file.hunks.length} in ${file.displayPath}`;
}

function fillCode(cell: HTMLElement, text: string, change: Span | undefined): void {
  let body = text;
  const carriageReturn = body.endsWith('\r');
  if (carriageReturn) body = body.slice(0, -1);
  if (change && change[0] < change[1] && change[1] <= body.length && change[1] - change[0] < body.length) {
    cell.append(body.slice(0, change[0]), h('span', { class: 'chg', text: body.slice(change[0], change[1]) }), body.slice(change[1]));
  } else {
    cell.textContent = body;
  }
  if (carriageReturn) cell.append(h('span', { class: 'eol', text: '␍', attrs: { role: 'img', title: 'Carriage return (CRLF line ending)', 'aria-label': 'carriage return' } }));
}

function numberCell(line: number | undefined, extra = ''): HTMLElement {
  return h('span', { class: `num${extra}`, attrs: { role: 'cell' }, text: line === undefined ? '' : String(line) });
}

function codeCell(kind: string, text: string, change: Span | undefined, extra = ''): HTMLElement {
  const cell = h('span', { class: `code${extra}`, attrs: { role: 'cell', 'data-kind': kind } });
  fillCode(cell, text, change);
  return cell;
}

function inlineRow(row: InlineRow): HTMLElement {
  const element = h('div', { class: `ln k-${row.kind}`, attrs: { role: 'row' } });
  element.append(numberCell(row.oldLine, ' old-num'), numberCell(row.newLine, ' new-num'), codeCell(row.kind, row.text, row.change));
  return element;
}

function sideCells(cell: SideCell | undefined, side: 'old' | 'new'): HTMLElement[] {
  if (!cell) return [h('span', { class: `num ${side}-num k-filler`, attrs: { role: 'cell' } }), h('span', { class: 'code k-filler', attrs: { role: 'cell' } })];
  return [numberCell(cell.line, ` ${side}-num k-${cell.kind}`), codeCell(cell.kind, cell.text, cell.change, ` k-${cell.kind}`)];
}

function sideBySideRow(row: SideBySideRow): HTMLElement {
  const element = h('div', { class: 'ln', attrs: { role: 'row' } });
  element.append(...sideCells(row.old, 'old'), ...sideCells(row.new, 'new'));
  return element;
}

function columnCount(layout: Layout): number {
  return layout === 'inline' ? 3 : 4;
}

function headerRow(layout: Layout): HTMLElement {
  const names = layout === 'inline' ? ['Old line', 'New line', 'Text'] : ['Old line', 'Old text', 'New line', 'New text'];
  return h('div', { class: 'sr-only', attrs: { role: 'rowgroup' } }, h('div', { attrs: { role: 'row' } }, ...names.map((name) => h('span', { attrs: { role: 'columnheader' }, text: name }))));
}

function unchangedRow(count: number, layout: Layout): HTMLElement {
  return h(
    'div',
    { class: 'gap', attrs: { role: 'row', 'data-unchanged': count } },
    h('span', { class: 'gap-cell', attrs: { role: 'cell', 'aria-colspan': columnCount(layout) }, text: `⋯ ${plural(count, 'unchanged line')}` }),
  );
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

/** Reflects a hunk's state on its row group and toggle. */
export function setHunkRejected(hunk: HTMLElement, rejected: boolean): void {
  hunk.classList.toggle('rejected', rejected);
  hunk.querySelector('.hunk-toggle')?.setAttribute('aria-pressed', String(rejected));
}

function renderHunk(file: FileView, hunk: HunkView, position: number, options: FileRenderOptions, tasks: Task[]): HTMLElement {
  const { layout, fileIndex } = options;
  const element = h('div', {
    class: 'hunk',
    attrs: {
      role: 'rowgroup',
      'data-hunk-index': hunk.index,
      'aria-label': `Hunk ${position + 1} of ${file.hunks.length}: old lines ${linesLabel(hunk.oldStart, hunk.oldLines)}, new lines ${linesLabel(hunk.newStart, hunk.newLines)}`,
    },
  });
  const toggle = h('button', {
    class: 'hunk-toggle',
    text: 'Reject hunk',
    attrs: {
      type: 'button',
      'aria-pressed': 'false',
      'aria-label': hunkToggleLabel(file, position),
      'data-action': 'toggle-hunk',
      'data-file': fileIndex,
      'data-hunk': hunk.index,
      'data-focus': `hunk:${fileIndex}:${hunk.index}`,
    },
  });
  element.append(
    h(
      'div',
      { class: 'hunk-header', attrs: { role: 'row' } },
      h(
        'span',
        { class: 'hunk-header-cell', attrs: { role: 'cell', 'aria-colspan': columnCount(layout) } },
        toggle,
        h('span', { class: 'hunk-range', text: rangeLabel(hunk) }),
        h('span', { class: 'hunk-status', text: 'Rejected: will not be applied' }),
      ),
    ),
  );
  setHunkRejected(element, options.isRejected(hunk.index));

  const rows: (InlineRow | SideBySideRow)[] = layout === 'inline' ? inlineRows(hunk) : sideBySideRows(hunk);
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    const slice = rows.slice(start, start + ROWS_PER_CHUNK);
    const chunk = h('div', { class: 'chunk pending', attrs: { role: 'presentation' } });
    chunk.style.setProperty('--rows', String(slice.length));
    element.append(chunk);
    tasks.push(() => {
      const fragment = document.createDocumentFragment();
      for (const row of slice) fragment.append(layout === 'inline' ? inlineRow(row as InlineRow) : sideBySideRow(row as SideBySideRow));
      chunk.append(fragment);
      chunk.classList.remove('pending');
    });
  }
  return element;
}

export function renderFile(file: FileView, options: FileRenderOptions): RenderedFile {
  const { fileIndex, layout } = options;
  const tasks: Task[] = [];
  const titleId = `file-${fileIndex}-title`;
  const stats = lineStats(file);

  const header = h(
    'div',
    { class: 'file-header' },
    h('h3', { class: 'file-title', attrs: { id: titleId, title: file.path } }, pathWithBreaks(file.displayPath)),
    file.created && h('span', { class: 'badge badge-new', text: 'New file' }),
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

  const table = h('div', { class: `diff diff-${layout}`, attrs: { role: 'table', 'aria-label': `Changes to ${file.displayPath}` } });
  table.style.setProperty('--digits', String(gutterDigits(file)));
  table.append(headerRow(layout));
  if (file.hunks.length === 0) {
    const message = file.created && file.totalNewLines === 0 ? 'Empty new file' : 'No line changes';
    table.append(h('div', { class: 'gap', attrs: { role: 'row' } }, h('span', { class: 'gap-cell', attrs: { role: 'cell', 'aria-colspan': columnCount(layout) }, text: message })));
  }
  const regions = unchangedRegions(file);
  file.hunks.forEach((hunk, position) => {
    if (regions.before[position] > 0) table.append(unchangedRow(regions.before[position], layout));
    table.append(renderHunk(file, hunk, position, options, tasks));
  });
  if (regions.after > 0) table.append(unchangedRow(regions.after, layout));

  const element = h('section', { class: 'file', attrs: { 'data-file-index': fileIndex, 'aria-labelledby': titleId } }, header, table);
  return { element, tasks };
}
