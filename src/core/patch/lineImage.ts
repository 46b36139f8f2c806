/**
 * A file's lines while a patch is placed in them, and the placed edits as data. Parts of a patch (hunks,
 * blocks, chunks) replace spans of the current lines one after another, as git apply, aider and codex apply
 * them; every line remembers whether it is one of the file's own lines (and which) or was written by a part.
 * At the end the image says which original lines each part replaced, as `PlacedEdit`s in the original
 * file's line numbers: one per part, in file order, never overlapping. Parts that touch each other's lines
 * (a later aider block that matches text an earlier block wrote, an insertion inside another part's span)
 * become one edit, since no order of separate edits could express them.
 *
 * Lines are '\n'-separated text (the guard's view, `toLf`); each line knows whether a '\n' follows it, so a
 * file that ends without a line break is represented exactly. Pure: no I/O.
 */

export interface Line {
  text: string;
  /** A '\n' follows the line (false only for a last line without a line break). */
  eol: boolean;
}

/** One part of a patch, placed: what replaces which lines of the file as it was before the patch. */
export interface PlacedEdit {
  /** 1-based first line of `oldText` in the file as it is before this operation's edits (for an insertion: the line it goes before; the line count + 1 at the end). */
  line: number;
  /** The replaced lines, each with its '\n' (the last without one when it ends the file without a line break). Empty for an insertion. */
  oldText: string;
  newText: string;
}

interface Entry extends Line {
  /** Index of the original line, or -1 for a line a part wrote. */
  orig: number;
  /** The part that wrote the line (-1 for original lines). */
  part: number;
}

export function splitLines(lf: string): Line[] {
  if (lf === '') return [];
  const texts = lf.split('\n');
  const finalBreak = texts[texts.length - 1] === '';
  if (finalBreak) texts.pop();
  return texts.map((text, i) => ({ text, eol: finalBreak || i < texts.length - 1 }));
}

export const joinLines = (lines: readonly Line[]): string => lines.map((line) => line.text + (line.eol ? '\n' : '')).join('');

export class LineImage {
  readonly original: readonly Line[];
  private entries: Entry[];
  /** For each original line, the part that replaced it (-1 while it is in place). */
  private readonly consumedBy: number[];
  private readonly parent = new Map<number, number>();
  private nextPart = 0;
  /** Parts numbered below this were placed in an earlier section of the patch: their lines may be matched again. */
  private epoch = 0;

  /**
   * `hidden` (0-based original line): lines the reader of a refusal may not be shown (an agent's patch: the lines
   * its session has not read). `quote` names them instead of quoting them, so a refusal is no content oracle.
   */
  constructor(
    lf: string,
    private readonly hidden: (orig: number) => boolean = () => false,
  ) {
    this.original = splitLines(lf);
    this.entries = this.original.map((line, orig) => ({ ...line, orig, part: -1 }));
    this.consumedBy = this.original.map(() => -1);
  }

  get length(): number {
    return this.entries.length;
  }

  line(index: number): Line {
    return this.entries[index];
  }

  lines(): Line[] {
    return this.entries.map(({ text, eol }) => ({ text, eol }));
  }

  /** The line at `index` quoted for a refusal, or named as unread when the reader may not see it. */
  quote(index: number): string {
    const entry = this.entries[index];
    if (!entry) return '(the end of the file)';
    if (entry.orig !== -1 && this.hidden(entry.orig)) return 'a line you have not read';
    return JSON.stringify(entry.text.length > 120 ? `${entry.text.slice(0, 117)}…` : entry.text);
  }

  /** Whether the line at `index` may be shown to the reader (see `quote`). */
  shown(index: number): boolean {
    const entry = this.entries[index];
    return !entry || entry.orig === -1 || !this.hidden(entry.orig);
  }

  /** Original line number (0-based) of the line at `index`, or -1 when a part wrote it. */
  originOf(index: number): number {
    return this.entries[index]?.orig ?? -1;
  }

  /** The line was written by a part of the current section (git refuses to match such lines: LINE_PATCHED). */
  isPatched(index: number): boolean {
    const part = this.entries[index]?.part ?? -1;
    return part >= this.epoch;
  }

  /** The section index of the part that wrote the line, as numbered by `newPart` (-1: an original line). */
  partOf(index: number): number {
    return this.entries[index]?.part ?? -1;
  }

  /** Starts a new section of the patch (a second diff of the same file): what earlier sections wrote may be matched. */
  newSection(): void {
    this.epoch = this.nextPart;
  }

  newPart(): number {
    return this.nextPart++;
  }

  text(): string {
    return joinLines(this.entries);
  }

  changed(): boolean {
    return this.entries.length !== this.original.length || this.entries.some((entry, i) => entry.orig !== i);
  }

  /** Index of a line without a line break that is not the last line (a patch that would join two lines), or -1. */
  joinedLine(): number {
    return this.entries.findIndex((entry, i) => !entry.eol && i < this.entries.length - 1);
  }

  /** Replaces `count` lines at `at` with `lines`, written by `part`. */
  replace(at: number, count: number, lines: readonly Line[], part: number): void {
    const span = this.entries.slice(at, at + count);
    for (const entry of span) if (entry.part !== -1) this.union(part, entry.part);
    // An original line inside the span that is not next to the one before it: the lines between were replaced
    // by another part, which this one now spans.
    const origins = span.filter((entry) => entry.orig !== -1).map((entry) => entry.orig);
    for (let i = 1; i < origins.length; i++) {
      for (let o = origins[i - 1] + 1; o < origins[i]; o++) if (this.consumedBy[o] !== -1) this.union(part, this.consumedBy[o]);
    }
    if (count === 0) {
      // An insertion between two lines of one part's output, or at the gap another part's removal left.
      const before = this.entries[at - 1];
      const after = this.entries[at];
      if (before?.part !== undefined && before.part !== -1 && before.part === after?.part) this.union(part, before.part);
      const gapFrom = before ? (before.orig === -1 ? -1 : before.orig + 1) : 0;
      const gapTo = after ? after.orig : this.original.length;
      if (gapFrom !== -1 && gapTo !== -1) for (let o = gapFrom; o < gapTo; o++) if (this.consumedBy[o] !== -1) this.union(part, this.consumedBy[o]);
    }
    for (const o of origins) this.consumedBy[o] = part;
    this.entries.splice(at, count, ...lines.map((line) => ({ ...line, orig: -1, part })));
  }

  /** The placed parts as edits of the original lines, in file order. */
  edits(): PlacedEdit[] {
    const edits: PlacedEdit[] = [];
    let nextOrig = 0;
    let pending: Entry[] = [];
    const flush = (until: number): void => {
      if (pending.length > 0 || until > nextOrig) edits.push(...this.split(nextOrig, until, pending));
      pending = [];
    };
    for (const entry of this.entries) {
      if (entry.orig === -1) pending.push(entry);
      else {
        if (pending.length > 0 || entry.orig !== nextOrig) flush(entry.orig);
        nextOrig = entry.orig + 1;
      }
    }
    flush(this.original.length);
    return edits;
  }

  /** A region of replaced original lines [from, to) and the lines written there, one edit per (merged) part. */
  private split(from: number, to: number, written: readonly Entry[]): PlacedEdit[] {
    const whole = (): PlacedEdit[] => [this.edit(from, to, written)];
    const old: { orig: number; group: number }[] = [];
    for (let o = from; o < to; o++) old.push({ orig: o, group: this.find(this.consumedBy[o]) });
    const fresh = written.map((entry) => ({ entry, group: this.find(entry.part) }));
    const edits: PlacedEdit[] = [];
    let i = 0;
    let j = 0;
    while (i < old.length || j < fresh.length) {
      const go = old[i]?.group;
      const gn = fresh[j]?.group;
      let group: number;
      if (go !== undefined && go === gn) group = go;
      else if (gn !== undefined && !old.slice(i).some((item) => item.group === gn)) {
        group = gn;
      } // an insertion
      else if (go !== undefined && !fresh.slice(j).some((item) => item.group === go)) {
        group = go;
      } // a removal
      else return whole();
      const start = i;
      while (i < old.length && old[i].group === group) i++;
      const firstNew = j;
      while (j < fresh.length && fresh[j].group === group) j++;
      if (old.slice(i).some((item) => item.group === group) || fresh.slice(j).some((item) => item.group === group)) return whole();
      edits.push(
        this.edit(
          from + start,
          from + i,
          fresh.slice(firstNew, j).map((item) => item.entry),
        ),
      );
    }
    return edits;
  }

  private edit(from: number, to: number, written: readonly Line[]): PlacedEdit {
    return { line: from + 1, oldText: joinLines(this.original.slice(from, to)), newText: joinLines(written) };
  }

  private find(part: number): number {
    let root = part;
    while (this.parent.has(root)) root = this.parent.get(root)!;
    return root;
  }

  private union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
}
