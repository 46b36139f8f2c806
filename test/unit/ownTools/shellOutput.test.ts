/**
 * A shell command's output as what a read showed (`ShownOutput`, Codex's reads), through the guard on real temp
 * files: a line counts only where the output holds it exactly, at its place (numbered lines by their numbers,
 * plain ones from each end inwards); a cut marker, a line the command did not print as the file has it, or a file
 * changed while it was read count nothing. And the pure matcher itself, with a seeded property.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, type ShownOutput } from '../../../src/core/index';
import { linesInOutput } from '../../../src/core/ownTools/outputLines';
import { makeTempDir } from '../helpers/tempDir';

const numbered = (count: number): string[] => Array.from({ length: count }, (_, i) => `line ${i + 1}`);
const text = (lines: string[], eol = '\n'): string => lines.join(eol) + eol;

let calls = 0;
async function shellRead(content: string, shown: ShownOutput, between?: (file: string) => void) {
  const root = makeTempDir();
  const file = path.join(root, 'a.txt');
  fs.writeFileSync(file, content);
  const guard = createGuard({ roots: [root] });
  const session = guard.session('codex');
  const id = `call_${++calls}`;
  assert.deepStrictEqual(await session.beforeOwnRead({ callId: id, path: file, cut: { startLine: 1 } }), { ok: true });
  between?.(file);
  const observed = await session.afterOwnRead(id, shown);
  await guard.dispose();
  return observed as { lines: string; note?: string };
}

suite('own tools: what a shell command showed of a file (ShownOutput)', () => {
  test('sed -n 3,8p: exactly lines 3-8; cat of a file cut in its middle: its head and its tail, not the cut', async () => {
    const lines = numbered(30);
    assert.strictEqual((await shellRead(text(lines), { output: text(lines.slice(2, 8)), form: 'plain', first: 3, last: 8 })).lines, '3-8'.replace(/-/g, '–'));
    const cut = `${lines.slice(0, 9).join('\n')}\nline 10…123 tokens truncated…ne 25\n${lines.slice(25).join('\n')}\n`;
    assert.strictEqual((await shellRead(text(lines), { output: cut, form: 'plain', first: 1, last: -1 })).lines, '1-9, 26-30'.replace(/-/g, '–'));
  });

  test('numbered output (nl -ba, cat -n, rg -n) counts each line by its number where its text is the file\'s', async () => {
    const lines = numbered(300);
    const nl = lines.slice(199, 210).map((line, i) => `${String(200 + i).padStart(6)}\t${line}`).join('\n') + '\n';
    assert.strictEqual((await shellRead(text(lines), { output: nl, form: 'numbered' })).lines, '200-210'.replace(/-/g, '–'));
    const rg = '2:line 2\n20:line 20\n21:line 21\n99:not line 99\n--\n120-line 120\n';
    assert.strictEqual((await shellRead(text(lines), { output: rg, form: 'numbered' })).lines, '2, 20-21, 120'.replace(/-/g, '–'));
  });

  test('CRLF lines and a BOM: compared without the carriage return, as the shell printed them', async () => {
    const lines = numbered(5);
    assert.strictEqual((await shellRead(text(lines, '\r\n'), { output: text(lines.slice(1, 4), '\r\n'), form: 'plain', first: 2, last: 4 })).lines, '2-4'.replace(/-/g, '–'));
    assert.strictEqual((await shellRead(`\uFEFF${text(lines)}`, { output: text(lines.slice(1, 3)), form: 'plain', first: 2, last: 3 })).lines, '2-3'.replace(/-/g, '–'));
  });

  test('tail of more lines than the file has starts at its first; head past its end stops at its last', async () => {
    const lines = numbered(4);
    assert.strictEqual((await shellRead(text(lines), { output: text(lines), form: 'plain', first: -20, last: -1 })).lines, '1-4'.replace(/-/g, '–'));
    assert.strictEqual((await shellRead(text(lines), { output: text(lines), form: 'plain', first: 1, last: 10 })).lines, '1-4'.replace(/-/g, '–'));
  });

  test('an output that is not the file (another file, a command that changed its lines) counts nothing; nor a file changed during the read', async () => {
    const lines = numbered(10);
    assert.strictEqual((await shellRead(text(lines), { output: 'other\ntext\n', form: 'plain', first: 1, last: -1 })).lines, 'none');
    assert.strictEqual((await shellRead(text(lines), { output: text(lines.map((line) => line.toUpperCase())), form: 'numbered' })).lines, 'none');
    const changed = await shellRead(text(lines), { output: text(lines), form: 'plain', first: 1, last: -1 }, (file) => fs.appendFileSync(file, 'more\n'));
    assert.strictEqual(changed.lines, '');
    assert.match(String(changed.note), /changed while it was read/);
  });

  test('seeded property: a line counts only where the output holds it at its place, whatever is cut or changed', function () {
    const seed = Number(process.env.READGATE_SEED ?? Date.now() % 100000);
    console.log(`      seed ${seed}`);
    let state = seed;
    const random = (n: number): number => ((state = (state * 1103515245 + 12345) % 2147483648), state % n);
    for (let run = 0; run < 2000; run++) {
      // Few distinct lines, so repeated content tempts a matcher that does not keep places.
      const file = Array.from({ length: 1 + random(40) }, () => `v${random(3)}`);
      const first = 1 + random(file.length);
      const last = first + random(file.length - first + 1) - 1;
      const printed = file.slice(first - 1, last);
      // Cut a middle part out, and change a line, as a client or another writer might.
      const out = [...printed];
      if (out.length > 2 && random(2)) out.splice(1 + random(out.length - 2), 1 + random(Math.max(1, out.length - 2)), 'cut…');
      if (out.length && random(3) === 0) out[random(out.length)] = 'changed';
      const ranges = linesInOutput({ output: out.length ? `${out.join('\n')}\n` : '', form: 'plain', first, last }, file.length, (line) => file[line - 1]);
      for (let i = 0; i < ranges.length; i += 2) {
        for (let line = ranges[i]; line <= ranges[i + 1]; line++) {
          assert.ok(line >= first && line <= last, `seed ${seed}: line ${line} outside ${first}-${last}`);
          // Each counted line is in the output at its place from the start or from the end.
          const fromStart = out[line - first] === file[line - 1] && out.slice(0, line - first).every((each, k) => each === file[first - 1 + k]);
          const fromEnd = out[out.length - 1 - (last - line)] === file[line - 1] && out.slice(out.length - (last - line)).every((each, k) => each === file[line + k]);
          assert.ok(fromStart || fromEnd, `seed ${seed}: line ${line} of ${JSON.stringify(file)} counted from ${JSON.stringify(out)} (${first}-${last})`);
        }
      }
    }
  });
});
