/**
 * Lost updates to a concurrent appender, for real: a child process appends a numbered line to root/log.txt
 * about once a millisecond for ~3 s (open, append, close each time), while this test reads the whole file and
 * toggles a marker on line 1, over and over. No appended line may be lost or doubled by the guard's writes
 * without the guard saying so, and line 1 ends in the state of the last edit that was written.
 *
 * "Without saying so": against a real process the last few-system-call windows (docs/guarantees.md, "What a
 * write guarantees") can still be hit. The guard then reports it, as a refusal whose message says the change WAS
 * written and their change may be lost, or as a warning in its log when a late append could not be carried over.
 * A loss with no such report fails this test.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import { childProgram, startChild } from '../helpers/childGuard';
import { put } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';

const APPEND_MS = 3000;
const marker = (on: boolean): string => `header [${on ? 'x' : ' '}]`;

suite('real faults: a concurrent appender', () => {
  test('every appended line survives the guard toggling line 1, and line 1 is what the last ok edit made it', async function () {
    this.timeout(120_000);
    const root = makeTempDir('readgate-append-');
    const file = put(path.join(root, 'log.txt'), `${marker(false)}\n`);
    const reports: string[] = [];
    const quiet = (): void => {};
    const logger = { trace: quiet, debug: quiet, info: quiet, error: quiet, warn: (message: string) => void (message.startsWith('[write]') && reports.push(message)) };
    const session = createGuard({ roots: [root], logger, limits: { maxLines: 1_000_000, maxBytes: 64 * 1024 * 1024 } }).session('toggler');

    const appender = startChild(childProgram('appender'), { args: [file, String(APPEND_MS)] });
    let exited = false;
    void appender.finished(60_000).then(() => {
      exited = true;
    });
    let on = false; // line 1 as the last ok edit left it
    const counts = { ok: 0, refused: {} as Record<string, number> };
    while (!exited) {
      const read = await session.read('log.txt');
      const edit = await session.edit('log.txt', [{ oldString: marker(on), newString: marker(!on) }]);
      for (const result of [read, edit]) {
        if (result.ok) counts.ok++;
        else counts.refused[result.code] = (counts.refused[result.code] ?? 0) + 1;
      }
      if (!edit.ok && edit.message.includes('may be lost')) reports.push(edit.message);
      if (edit.ok || edit.message.includes('WAS written')) on = !on;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const done = await appender.finished(60_000);
    assert.ok(!done.hung && done.code === 0, `the appender child failed: ${JSON.stringify(done)}`);
    const appended = (JSON.parse(done.stdout.trim()) as { count: number }).count;
    const summary = `${counts.ok} calls ok, refused ${JSON.stringify(counts.refused)}; ${appended} lines appended; ${reports.length} reported race(s)`;
    console.log(`      ${summary}`);

    const lines = fs.readFileSync(file, 'utf8').split('\n');
    assert.strictEqual(lines.pop(), '', 'the file no longer ends with a newline');
    const seen = new Map<number, number>();
    const strange: string[] = [];
    for (const line of lines.slice(1)) {
      const match = /^append (\d+)$/.exec(line);
      if (match) seen.set(Number(match[1]), (seen.get(Number(match[1])) ?? 0) + 1);
      else strange.push(line);
    }
    const lost = Array.from({ length: appended }, (_, i) => i + 1).filter((n) => !seen.has(n));
    const doubled = [...seen].filter(([, times]) => times > 1).map(([n]) => n);
    const show = (list: number[]): string => `${list.length}${list.length ? ` (${list.slice(0, 20).join(', ')}${list.length > 20 ? ', …' : ''})` : ''}`;
    assert.ok(
      (lost.length === 0 || reports.length > 0) && doubled.length === 0 && strange.length === 0,
      `appended lines lost without a report: ${show(lost)}; doubled: ${show(doubled)}; other lines: ${JSON.stringify(strange.slice(0, 5))} (${summary}; reports: ${JSON.stringify(reports.slice(0, 3))})`,
    );
    if (lost.length) console.log(`      ${lost.length} line(s) lost in reported races: ${reports.slice(0, 3).join(' | ').slice(0, 400)}`);
    assert.strictEqual(lines[0], marker(on), `line 1 is not what the last ok edit made it (${summary})`);
  });
});
