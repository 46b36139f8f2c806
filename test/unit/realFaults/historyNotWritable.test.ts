/**
 * A history folder this process may not write, for real: the history runs in a child process as `nobody`
 * (65534:65534) on folders root owns. Recording must resolve undefined with an EACCES warning, never throw or
 * reject (the child would exit non-zero), and leave the folder as it was. Needs root (to run a child as another
 * user).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { childProgram, coreBundle, readableBy, startChild } from '../helpers/childGuard';
import { needsRoot } from '../helpers/needsRoot';
import { makeTempDir } from '../helpers/tempDir';

const nobody = { uid: 65534, gid: 65534 };

interface Outcome {
  warnings: { warn: string; data?: { code?: string } }[];
  recorded: unknown;
  listed: number;
}

async function recordAsNobody(dir: string): Promise<Outcome> {
  const { paths: [core, program] } = readableBy(nobody, [coreBundle(), childProgram('historyCalls')]);
  const child = startChild(program, { args: [core, dir], as: nobody, cwd: '/' });
  const done = await child.finished(30_000);
  assert.ok(!done.hung, `hung: the history child did not finish within 30 s\n${done.stderr}`);
  assert.strictEqual(done.code, 0, `the history child failed (a throw or a rejection reached it):\n${done.stderr}`);
  const lines = done.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
  assert.ok(done.stdout.endsWith('done\n'), `the child did not finish its calls:\n${done.stdout}`);
  return {
    warnings: lines.filter((line) => 'warn' in line),
    recorded: lines.find((line) => 'recorded' in line)?.recorded,
    listed: lines.find((line) => 'listed' in line)?.listed,
  };
}

const entries = (dir: string): string[] => fs.readdirSync(dir, { recursive: true }).map(String).sort();

suite('real faults: a history folder this user may not write', () => {
  test('a history running as nobody in a root-owned 0755 folder drops the change with an EACCES warning', async function () {
    this.timeout(60_000);
    needsRoot('a history running as another user (nobody) in a folder it may not write');
    const root = makeTempDir('readgate-history-notmine-');
    fs.chmodSync(root, 0o755);
    const dir = path.join(root, 'history');
    fs.mkdirSync(dir, { mode: 0o755 });
    const outcome = await recordAsNobody(dir);
    assert.strictEqual(outcome.recorded, null);
    assert.strictEqual(outcome.listed, 0);
    assert.deepStrictEqual(outcome.warnings.map((w) => [w.warn, w.data?.code]), [['[history] change not recorded', 'EACCES']]);
    assert.deepStrictEqual(entries(dir), []);
  });

  test('a history folder nobody may not even list (root-owned 0700) drops the change the same way', async function () {
    this.timeout(60_000);
    needsRoot('a history running as another user (nobody) in a folder it may not read');
    const root = makeTempDir('readgate-history-closed-');
    fs.chmodSync(root, 0o755);
    const dir = path.join(root, 'history');
    fs.mkdirSync(path.join(dir, 'records'), { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    fs.writeFileSync(path.join(dir, 'records', 'keep.json'), 'not ours to touch');
    const outcome = await recordAsNobody(dir);
    assert.strictEqual(outcome.recorded, null);
    assert.deepStrictEqual(outcome.warnings.map((w) => w.data?.code), ['EACCES', 'EACCES'], 'the record and the list each say why');
    assert.deepStrictEqual(entries(dir), ['records', path.join('records', 'keep.json')]);
  });
});
