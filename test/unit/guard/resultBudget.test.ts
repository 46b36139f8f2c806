/**
 * A session's result budget (SPEC section 3): clients cut long tool results (Claude Code keeps a preview of
 * results over ~50,000 characters, Codex cuts MCP output near 12 KB for models it has no data for), so nothing a session returns may be longer
 * than its client shows, and only what a result shows counts as seen. Found with Claude Code: a 900-line read
 * returned ~90 KB, the client kept a 2 KB preview, the repeated read answered "unchanged … exactly as shown
 * then" and an edit of line 600, which the model never had, was applied.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, type GuardSession, type ReadResult } from '../../../src/core/index';
import { fitText, limitsWithin, MIN_BUDGET_CHARS, type ReadLimits } from '../../../src/core/text/resultBudget';
import { assertOk, codeOf, fixture } from '../helpers/guardFixture';
import { seeded } from '../helpers/seeded';
import { makeTempDir } from '../helpers/tempDir';

const BUDGET = { maxChars: 10_000, reason: 'the client cuts longer results' };

/** 900 lines of ~100 characters: line n starts with its number. */
const lines900 = (): string => Array.from({ length: 900 }, (_, i) => `row ${String(i + 1).padStart(4, '0')} ${'x'.repeat(90)}`).join('\n') + '\n';

/** The numbered lines a read's text shows whole, as line number → content. */
function shownLines(text: string): Map<number, string> {
  const shown = new Map<number, string>();
  for (const line of text.split('\n').slice(1)) {
    const match = /^ *(\d+)\t(.*)$/s.exec(line);
    if (match && !match[2].includes('[line shortened:')) shown.set(Number(match[1]), match[2]);
  }
  return shown;
}

function budgeted(options: Parameters<typeof createGuard>[0] extends infer O ? Partial<O> : never = {}) {
  const f = fixture(options);
  return { ...f, session: f.guard.session('client', { resultBudget: BUDGET }) };
}

suite('result budget: nothing counts that the client was not shown', () => {
  test('a read of 900 lines stops within the budget at a line boundary, says so in its header, and names the next offset', async () => {
    const f = budgeted();
    const file = f.file('big.txt', lines900());
    const read = await f.session.read(file);
    assertOk(read);
    assert.strictEqual(read.kind, 'content');
    assert.ok(read.text.length <= BUDGET.maxChars, `${read.text.length} characters`);
    assert.strictEqual(read.kind === 'content' && read.truncated, true);
    const header = read.text.split('\n')[0];
    assert.match(header, new RegExp(`lines 1-${read.endLine} of 900, cut by the size limit: next offset ${read.endLine + 1}`));
    assert.match(read.text, /truncated by this client's 10,000-character result limit \(the client cuts longer results\)/);
    assert.ok(read.endLine > 50 && read.endLine < 100, `ended at ${read.endLine}`);
  });

  test('only the shown lines count as seen: the repeated read is content, and an edit of line 600 is refused', async () => {
    const f = budgeted();
    const file = f.file('big.txt', lines900());
    const first = await f.session.read(file);
    assertOk(first);
    const again = await f.session.read(file);
    assertOk(again);
    assert.strictEqual(again.kind, 'content', 'a truncated read never earns a placeholder');
    const line600 = lines900().split('\n')[599];
    const edit = await f.session.edit(file, [{ oldString: line600, newString: 'changed' }]);
    assert.strictEqual(codeOf(edit), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), lines900());
    const seen = f.session.entries()[0].seenText;
    assert.strictEqual(seen, `1–${first.ok && first.kind === 'content' ? first.endLine : 0}`);
  });

  test('the same file read without a budget returns it whole (the budget is the session\'s, not the guard\'s)', async () => {
    const f = budgeted();
    const file = f.file('big.txt', lines900());
    const read = await f.guard.session('no-budget').read(file);
    assertOk(read);
    assert.strictEqual(read.kind === 'content' && read.endLine, 900);
  });

  test('a call\'s own budget (maxChars) tightens the session\'s for that read only; only what it showed counts; bad values are INVALID_INPUT', async () => {
    const f = budgeted();
    const file = f.file('big.txt', lines900());
    const session = f.guard.session('per-call');
    const small = await session.read(file, { maxChars: 3_000 });
    assertOk(small);
    assert.ok(Buffer.byteLength(small.text) <= 3_000, `${Buffer.byteLength(small.text)}`);
    const end = small.kind === 'content' ? small.endLine : 0;
    assert.ok(end > 10 && end < 900, `${end}`);
    assert.match(small.text, /the budget this call was given/);
    // The lines past the cut were not shown: an edit there is refused, one in the shown lines applies.
    assert.strictEqual(codeOf(await session.edit(file, [{ oldString: 'row 0800 ', newString: 'row 800 ' }])), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.strictEqual(codeOf(await session.edit(file, [{ oldString: 'row 0002 ', newString: 'row 2 ' }])), 'ok');
    // A larger call budget than the session's does not loosen it.
    const budgetedSession = f.guard.session('b', { resultBudget: BUDGET });
    const loose = await budgetedSession.read(file, { maxChars: 1_000_000 });
    assertOk(loose);
    assert.ok(Buffer.byteLength(loose.text) <= BUDGET.maxChars);
    for (const maxChars of [0, -5, 1.5, '100', Number.NaN]) assert.strictEqual(codeOf(await session.read(file, { maxChars: maxChars as number })), 'INVALID_INPUT', String(maxChars));
  });

  test('seeded property: every read fits the budget and every line counted as seen was shown whole', async function () {
    this.timeout(120_000);
    const random = seeded();
    const root = makeTempDir('readgate-budget-');
    const runs = Number(process.env.READGATE_PROPERTY_RUNS ?? 200) > 2000 ? 2000 : 200;
    for (let run = 0; run < runs; run++) {
      const maxChars = random.between(MIN_BUDGET_CHARS - 500, 60_000);
      const guard = createGuard({ roots: [root], limits: { maxLineLength: random.between(50, 3000) } });
      const session = guard.session(`s${run}`, { resultBudget: { maxChars } });
      const count = random.between(1, 400);
      const pieces = ['a', 'é', '中', '😀', ' ', '\t'];
      const content = Array.from({ length: count }, () => {
        const length = random.next() < 0.05 ? random.between(2000, 20_000) : random.between(0, 150);
        let line = '';
        for (let i = 0; i < length; i++) line += pieces[random.between(0, pieces.length - 1)];
        return line;
      });
      const eol = random.next() < 0.3 ? '\r\n' : '\n';
      const file = path.join(root, `f${run}.txt`);
      fs.writeFileSync(file, content.join(eol) + eol);
      const offset = random.next() < 0.5 ? undefined : random.between(1, count);
      const limit = random.next() < 0.5 ? undefined : random.between(1, count);
      const read: ReadResult = await session.read(file, { offset, limit });
      const where = `${random.note}, run ${run}: budget ${maxChars}, ${count} lines, offset ${offset}, limit ${limit}`;
      assert.ok(read.ok, `${where}: ${JSON.stringify(read).slice(0, 300)}`);
      const text = read.text;
      assert.ok(Buffer.byteLength(text) <= Math.max(maxChars, MIN_BUDGET_CHARS), `${where}: ${Buffer.byteLength(text)} bytes`);
      const shown = shownLines(text);
      const seen = session.entries()[0]?.seen ?? [];
      for (let i = 0; i < seen.length; i += 2) {
        for (let line = seen[i]; line <= seen[i + 1]; line++) {
          assert.strictEqual(shown.get(line), content[line - 1], `${where}: line ${line} counted as seen but not shown whole`);
        }
      }
      await guard.dispose();
      fs.unlinkSync(file);
    }
  });

  test('a file too big to load (streamed) is read within the budget too', async function () {
    this.timeout(60_000);
    const f = budgeted();
    const line = `${'y'.repeat(99)}\n`;
    const file = f.file('huge.txt', line.repeat(90_000)); // 9 MB: streamed
    const read = await f.session.read(file, { offset: 100 });
    assertOk(read);
    assert.ok(read.text.length <= BUDGET.maxChars, `${read.text.length} characters`);
    assert.match(read.text.split('\n')[0], /cut by the size limit: next offset \d+/);
  });

  test('a refusal\'s diff fits the budget: a changed region with a 1.5 MB line shows what fits, and only that counts as seen', async () => {
    const f = budgeted();
    const original = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const file = f.file('a.txt', original);
    assertOk(await f.session.read(file));
    const huge = 'z'.repeat(1_500_000);
    const changed = original.replace('line 10\n', `${huge}\nline 10 changed\n`);
    fs.writeFileSync(file, changed);
    const edit = await f.session.edit(file, [{ oldString: 'line 10\n', newString: 'line ten\n' }]);
    assert.strictEqual(codeOf(edit), 'FILE_CHANGED_SINCE_READ');
    assert.ok(!edit.ok && edit.code.length + 2 + Buffer.byteLength(edit.message) <= BUDGET.maxChars, `${!edit.ok && edit.message.length}`);
    assert.match(!edit.ok ? edit.message : '', /line shortened: 1,500,000 characters/);
    // The shortened line was not shown: editing it needs a read (which cannot show it whole either).
    const entry = f.session.entries()[0];
    assert.ok(!entry.seen.some((_, i) => i % 2 === 0 && entry.seen[i] <= 10 && 10 <= entry.seen[i + 1]), `seen ${entry.seenText}`);
  });

  test('a change that inserts a 1.5 MB line is applied, and its result fits the budget', async () => {
    const f = budgeted();
    const file = f.file('a.txt', 'one\ntwo\nthree\n');
    assertOk(await f.session.read(file));
    const huge = 'q'.repeat(1_500_000);
    const edit = await f.session.edit(file, [{ oldString: 'two\n', newString: `${huge}\n` }]);
    assertOk(edit);
    assert.ok(edit.text.length <= BUDGET.maxChars, `${edit.text.length}`);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), `one\n${huge}\nthree\n`);
  });

  test('a refusal quoting long lines (the closest lines of NO_OCCURRENCE_FOUND) fits the budget', async () => {
    const f = budgeted();
    const long = Array.from({ length: 20 }, (_, i) => `target ${i} ${'w'.repeat(3000)}`).join('\n') + '\n';
    const session: GuardSession = f.guard.session('wide', { resultBudget: { maxChars: 60_000 } });
    const file = f.file('a.txt', long);
    assertOk(await session.read(file));
    const narrow = f.guard.session('narrow', { resultBudget: { maxChars: 3_000 } });
    assertOk(await narrow.read(file, { offset: 1, limit: 1 }));
    const edit = await narrow.edit(file, [{ oldString: 'target 0 wx', newString: 'b' }]);
    assert.strictEqual(codeOf(edit), 'NO_OCCURRENCE_FOUND');
    assert.ok(!edit.ok && edit.code.length + 2 + edit.message.length <= 3_000, `${!edit.ok && edit.message.length}`);
  });
});

suite('result budget: the caps it sets', () => {
  test('a budget below the floor is raised to it; the caps leave room for the header and notes', () => {
    const limits = limitsWithin<ReadLimits>({ maxLines: 2000, maxBytes: 100_000, maxLineLength: 2000 }, { maxChars: 10 });
    assert.strictEqual(limits.maxChars, MIN_BUDGET_CHARS);
    assert.ok(limits.maxBytes < MIN_BUDGET_CHARS && limits.maxBytes > 0);
    assert.ok(limits.maxLineLength * 4 <= limits.maxBytes);
  });

  test('a budget larger than the byte cap leaves the cap and its wording alone', () => {
    const base: ReadLimits = { maxLines: 2000, maxBytes: 100_000, maxLineLength: 2000 };
    const limits = limitsWithin(base, { maxChars: 500_000 });
    assert.strictEqual(limits.maxBytes, 100_000);
    assert.strictEqual(limits.capName, undefined);
  });

  test('fitText cuts at a line, shortens long lines and says how much it cut', () => {
    const text = ['head', 'x'.repeat(5000), ...Array.from({ length: 400 }, (_, i) => `row ${i}`)].join('\n');
    const fitted = fitText(text, 2000);
    assert.ok(Buffer.byteLength(fitted) <= 2000);
    const wide = fitText('中'.repeat(3000), 2000);
    assert.ok(Buffer.byteLength(wide) <= 2000, `${Buffer.byteLength(wide)} bytes`);
    assert.match(fitted, /line shortened: 5,000 characters/);
    assert.match(fitted, /more lines cut: a result holds at most 2,000 characters here\]$/);
  });
});
