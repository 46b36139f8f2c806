/**
 * Temp files left behind by a crashed writer are removed by the next successful write in their folder, and
 * nothing else is: not a temp file whose writer may still be writing it (a live process, or touched within the
 * last minute), not a directory, link or hard-linked file with such a name, not a name that only looks alike.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { isStrayTemp, STRAY_MIN_AGE_MS, sweepDue, SWEEP_INTERVAL_MS, tempWriterPid } from '../../../src/core/nodeFs/strayTemps';
import { tempNameFor } from '../../../src/core/nodeFs/safeWrite';
import { fixture } from '../helpers/guardFixture';

/** The pid of a process that has ended (spawned and waited for). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  assert.ok(child.pid && child.status === 0, 'could not run a short child process');
  return child.pid;
}

const minutesAgo = (minutes: number): Date => new Date(Date.now() - minutes * 60_000);

function age(file: string, minutes: number): void {
  fs.utimesSync(file, minutesAgo(minutes), minutesAgo(minutes));
}

suite('stray temp files of crashed writers', () => {
  test('the write path\'s own temp names are recognized, with their writer\'s pid; other names are not', () => {
    const name = tempNameFor('/some/dir/report.final.txt');
    assert.strictEqual(tempWriterPid(name), process.pid);
    assert.strictEqual(tempWriterPid(tempNameFor(`/x/${'n'.repeat(300)}`)), process.pid);
    for (const other of ['report.txt', '.report.txt.readgate-12-ab-0.tmp~', 'report.readgate-12-ab-0.tmp', '.report.readgate-x-ab-0.tmp', '.readgate-12-ab-0.tmp', '.a.readgate-12-AB-0.tmp']) {
      assert.strictEqual(tempWriterPid(other), undefined, other);
    }
  });

  test('decision table: only a plain file, untouched for a minute, whose writer is gone or is this process', () => {
    const now = 1_000_000_000;
    const base = { name: '.a.txt.readgate-4242-k1-0.tmp', plainFile: true, mtimeMs: now - STRAY_MIN_AGE_MS, nowMs: now, ownPid: 7, isAlive: () => false };
    const rows: [string, Partial<typeof base>, boolean][] = [
      ['writer gone, a minute old', {}, true],
      ['writer gone, touched just now', { mtimeMs: now - STRAY_MIN_AGE_MS + 1 }, false],
      ['writer alive', { isAlive: () => true }, false],
      ['this process (its writes clean up before they return)', { ownPid: 4242, isAlive: () => true }, true],
      ['this process, touched just now', { ownPid: 4242, mtimeMs: now }, false],
      ['not a plain file (directory, link, hard-linked)', { plainFile: false }, false],
      ['not a temp name', { name: 'a.txt' }, false],
    ];
    for (const [label, change, expected] of rows) {
      assert.strictEqual(isStrayTemp({ ...base, ...change }), expected, label);
    }
  });

  test('a folder is looked through again only after the interval', () => {
    const folder = `/nowhere/${Math.random()}`;
    assert.strictEqual(sweepDue(folder, 1_000), true);
    assert.strictEqual(sweepDue(folder, 1_000 + SWEEP_INTERVAL_MS - 1), false);
    assert.strictEqual(sweepDue(folder, 1_000 + SWEEP_INTERVAL_MS), true);
  });

  test('the next successful write removes what crashed writers left, and keeps everything else byte for byte', async () => {
    const f = fixture();
    const target = f.file('notes.txt', 'one\ntwo\n');
    const dead = deadPid();
    const put = (name: string, minutes: number, content = 'partial new content'): string => {
      const file = f.file(name, content);
      age(file, minutes);
      return file;
    };
    const stray = [put(`.notes.txt.readgate-${dead}-kx1-0.tmp`, 5), put(`.other.md.readgate-${dead}-kx2-3.tmp`, 90), put(`.notes.txt.readgate-${process.pid}-kx0-1.tmp`, 2)];
    const keep = [
      put(`.notes.txt.readgate-${dead}-kx3-0.tmp`, 0), // touched just now: its writer may be on another machine
      put(`.notes.txt.readgate-1-kx4-0.tmp`, 5), // pid 1 is alive
      put('.notes.txt.readgate.tmp', 5), // looks alike, is not one
      put('notes.txt.bak', 5),
    ];
    const linkedTemp = put(`.linked.readgate-${dead}-kx5-0.tmp`, 5);
    fs.linkSync(linkedTemp, path.join(f.root, 'linked-elsewhere'));
    const folderTemp = path.join(f.root, `.dir.readgate-${dead}-kx6-0.tmp`);
    fs.mkdirSync(folderTemp);
    fs.utimesSync(folderTemp, minutesAgo(5), minutesAgo(5));
    const linkTemp = path.join(f.root, `.sym.readgate-${dead}-kx7-0.tmp`);
    fs.symlinkSync('notes.txt.bak', linkTemp);
    fs.lutimesSync(linkTemp, minutesAgo(5), minutesAgo(5));
    const kept = [...keep, linkedTemp, folderTemp, linkTemp];
    const before = new Map(kept.map((file) => [file, fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : 'not a file']));

    const read = await f.session.read(target);
    assert.ok(read.ok, JSON.stringify(read));
    const edit = await f.session.edit(target, [{ oldString: 'two', newString: 'TWO' }]);
    assert.ok(edit.ok, JSON.stringify(edit));

    assert.strictEqual(f.text('notes.txt'), 'one\nTWO\n');
    for (const file of stray) assert.ok(!fs.existsSync(file), `left behind: ${path.basename(file)}`);
    for (const file of kept) {
      assert.strictEqual(fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : 'not a file', before.get(file), `changed: ${path.basename(file)}`);
    }
  });

  test('a refused edit removes nothing', async () => {
    const f = fixture();
    const target = f.file('a.txt', 'alpha\n');
    const stray = f.file(`.a.txt.readgate-${deadPid()}-kx1-0.tmp`, 'partial');
    age(stray, 5);
    const edit = await f.session.edit(target, [{ oldString: 'alpha', newString: 'beta' }]);
    assert.ok(!edit.ok, 'an edit without a read was applied');
    assert.ok(fs.existsSync(stray), 'a refused edit touched the folder');
  });
});
