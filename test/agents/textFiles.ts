/** Generated text files for the agent tests: every line says its number, so a test can tell which lines a result holds. */

/** Line `n`, exactly `width` characters: "line 12 " padded with `filler` repeated. */
export function numberedLine(n: number, width: number, filler = 'abcdefghij'): string {
  const head = `line ${n} `;
  return (head + filler.repeat(Math.ceil(width / filler.length) + 1)).slice(0, Math.max(width, head.length));
}

/** `count` numbered lines of `width` characters, each ended by "\n". */
export function numberedLines(count: number, width: number, filler?: string): string {
  return Array.from({ length: count }, (_, i) => `${numberedLine(i + 1, width, filler)}\n`).join('');
}

/** Numbered lines of `width` characters cut to exactly `chars` characters (the last line may be shorter). */
export function fileOfSize(chars: number, width: number, filler?: string): string {
  return numberedLines(Math.ceil(chars / (width + 1)) + 1, width, filler).slice(0, chars);
}
