/**
 * Renders one file of a request: its header (fileHeader.ts) and its hunks, inline or side by side, with line
 * numbers, unchanged regions between hunks collapsed to an "N unchanged lines" row, and a per-hunk Reject toggle
 * (`aria-pressed`). A deleted file's one hunk (its whole old content, removed) has no toggle: a deletion is
 * approved or rejected whole. Beyond its first lines it is collapsed to a "N more lines" row whose Show button
 * (`aria-expanded`) reveals the rest, built only then (`toggleCollapsed`).
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
import { gutterDigits, inlineRows, sideBySideRows, unchangedRegions, type InlineRow, type Layout, type SideCell, type SideBySideRow, type Span } from './diffRows';
import { h } from './dom';
import type { Task } from './chunkScheduler';
import { renderFileHeader } from './fileHeader';
import { fileKind } from './requestWording';

export const ROWS_PER_CHUNK = 200;
/** A deleted file longer than this many lines shows only its first `DELETED_HEAD_ROWS` until asked. */
export const DELETED_COLLAPSE_OVER = 30;
export const DELETED_HEAD_ROWS = 20;

export interface FileRenderOptions {
  fileIndex: number;
  layout: Layout;
  isRejected(hunkIndex: number): boolean;
  /** A deleted file's collapsed lines are shown (the user expanded them before this render). */
  expanded?: boolean;
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

/** Reflects a hunk's state on its row group and toggle. */
export function setHunkRejected(hunk: HTMLElement, rejected: boolean): void {
  hunk.classList.toggle('rejected', rejected);
  hunk.querySelector('.hunk-toggle')?.setAttribute('aria-pressed', String(rejected));
}

type Row = InlineRow | SideBySideRow;

/** Empty chunks for `rows` (their height reserved), each with a task that fills it. */
function chunksOf(rows: Row[], layout: Layout, tasks: Task[]): HTMLElement[] {
  const chunks: HTMLElement[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    const slice = rows.slice(start, start + ROWS_PER_CHUNK);
    const chunk = h('div', { class: 'chunk pending', attrs: { role: 'presentation' } });
    chunk.style.setProperty('--rows', String(slice.length));
    chunks.push(chunk);
    tasks.push(() => {
      const fragment = document.createDocumentFragment();
      for (const row of slice) fragment.append(layout === 'inline' ? inlineRow(row as InlineRow) : sideBySideRow(row as SideBySideRow));
      chunk.append(fragment);
      chunk.classList.remove('pending');
    });
  }
  return chunks;
}

/** The lines of a deleted file behind its Show button: built on the first Show, then hidden and shown. */
interface Collapsed {
  rest: HTMLElement;
  rows: Row[];
  layout: Layout;
  /** "21–45": the line numbers the rows hold. */
  range: string;
  built: boolean;
}

const collapsedBy = new WeakMap<HTMLElement, Collapsed>();

function setCollapsedState(button: HTMLElement, state: Collapsed, expanded: boolean): void {
  state.rest.hidden = !expanded;
  button.setAttribute('aria-expanded', String(expanded));
  button.textContent = expanded ? 'Hide' : 'Show';
  button.setAttribute('aria-label', `${expanded ? 'Hide' : 'Show'} lines ${state.range} of the deleted file`);
  const text = button.parentElement?.querySelector('.gap-text');
  if (!text) return;
  text.textContent = expanded ? `Lines ${state.range} of the deleted file, below` : `⋯ ${plural(state.rows.length, 'more line')} of the deleted file`;
}

/**
 * Shows or hides the collapsed lines of a deleted file (the Show/Hide button); returns the tasks that build
 * them the first time they are shown, for the page to run without freezing.
 */
export function toggleCollapsed(button: HTMLElement): { expanded: boolean; tasks: Task[] } | undefined {
  const state = collapsedBy.get(button);
  if (!state) return undefined;
  const expanded = state.rest.hidden;
  const tasks: Task[] = [];
  if (expanded && !state.built) {
    state.rest.append(...chunksOf(state.rows, state.layout, tasks));
    state.built = true;
  }
  setCollapsedState(button, state, expanded);
  return { expanded, tasks };
}

/** A deleted file's lines: the first ones, then the rest behind a Show button when there are many. */
function deletedRows(rows: Row[], firstLine: number, options: FileRenderOptions, tasks: Task[]): HTMLElement[] {
  if (rows.length <= DELETED_COLLAPSE_OVER) return chunksOf(rows, options.layout, tasks);
  const head = chunksOf(rows.slice(0, DELETED_HEAD_ROWS), options.layout, tasks);
  const { fileIndex, layout } = options;
  const restId = `file-${fileIndex}-collapsed`;
  const rest = h('div', { class: 'collapsed-rows', attrs: { role: 'presentation', id: restId, hidden: true } });
  const button = h('button', {
    class: 'gap-toggle',
    attrs: { type: 'button', 'data-action': 'toggle-collapsed', 'data-file': fileIndex, 'data-focus': `collapsed:${fileIndex}`, 'aria-controls': restId },
  });
  const hidden = rows.slice(DELETED_HEAD_ROWS);
  const state: Collapsed = { rest, rows: hidden, layout, range: linesLabel(firstLine + DELETED_HEAD_ROWS, hidden.length), built: false };
  collapsedBy.set(button, state);
  const cell = h('span', { class: 'gap-cell', attrs: { role: 'cell', 'aria-colspan': columnCount(layout) } }, h('span', { class: 'gap-text' }), ' ', button);
  const row = h('div', { class: 'gap', attrs: { role: 'row' } }, cell);
  setCollapsedState(button, state, false);
  if (options.expanded) tasks.push(...(toggleCollapsed(button)?.tasks ?? []));
  return [...head, row, rest];
}

function renderHunk(file: FileView, hunk: HunkView, position: number, options: FileRenderOptions, tasks: Task[]): HTMLElement {
  if (file.deleted) {
    const rows = options.layout === 'inline' ? inlineRows(hunk) : sideBySideRows(hunk);
    const element = h('div', { class: 'hunk deleted-content', attrs: { role: 'rowgroup', 'aria-label': `Removed with the file: lines ${linesLabel(hunk.oldStart, hunk.oldLines)}` } });
    element.append(...deletedRows(rows, hunk.oldStart, options, tasks));
    return element;
  }
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

  const rows: Row[] = layout === 'inline' ? inlineRows(hunk) : sideBySideRows(hunk);
  element.append(...chunksOf(rows, layout, tasks));
  return element;
}

function tableLabel(file: FileView): string {
  if (file.deleted) return `Content of ${file.displayPath}, deleted`;
  if (file.movedTo !== undefined) return `Changes to ${file.displayPath}, moved to ${file.movedToDisplay ?? file.movedTo}`;
  return `Changes to ${file.displayPath}`;
}

function emptyMessage(file: FileView): string {
  if (file.deleted) return 'Empty file, deleted';
  if (file.movedTo !== undefined) return 'Moved, content unchanged';
  return file.created && file.totalNewLines === 0 ? 'Empty new file' : 'No line changes';
}

export function renderFile(file: FileView, options: FileRenderOptions): RenderedFile {
  const { fileIndex, layout } = options;
  const tasks: Task[] = [];
  const header = renderFileHeader(file, fileIndex);

  const table = h('div', { class: `diff diff-${layout}`, attrs: { role: 'table', 'aria-label': tableLabel(file) } });
  table.style.setProperty('--digits', String(gutterDigits(file)));
  table.append(headerRow(layout));
  if (file.hunks.length === 0) {
    table.append(h('div', { class: 'gap', attrs: { role: 'row' } }, h('span', { class: 'gap-cell', attrs: { role: 'cell', 'aria-colspan': columnCount(layout) }, text: emptyMessage(file) })));
  }
  const regions = unchangedRegions(file);
  file.hunks.forEach((hunk, position) => {
    if (regions.before[position] > 0) table.append(unchangedRow(regions.before[position], layout));
    table.append(renderHunk(file, hunk, position, options, tasks));
  });
  if (regions.after > 0) table.append(unchangedRow(regions.after, layout));

  const element = h('section', { class: `file file-${fileKind(file)}`, attrs: { 'data-file-index': fileIndex, 'aria-labelledby': header.labelledBy } }, ...header.elements, table);
  return { element, tasks };
}
