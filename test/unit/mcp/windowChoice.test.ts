import * as assert from 'assert';
import { decideWindows, pickWindow, type WindowEntry } from '../../../src/mcp/index';

const entry = (name: string, folders: string[], started: number): WindowEntry => ({ version: 1, pid: 1, url: 'http://127.0.0.1:1/mcp', token: 't', folders, name, started });

suite('which window an agent reaches (decideWindows)', () => {
  const repo = entry('repo', ['/w/repo'], 1);
  const app = entry('app', ['/w/repo/packages/app'], 2);
  const both = entry('both', ['/w/other', '/w/repo'], 3);
  const windows = [repo, app, both];

  // One row per working folder: each window's verdict, in the order the windows were given.
  const table: { cwd: string; verdicts: string[] }[] = [
    { cwd: '/w/repo/packages/app/src', verdicts: ['shallower /w/repo (app)', 'picked /w/repo/packages/app', 'shallower /w/repo (app)'] },
    { cwd: '/w/repo/docs', verdicts: ['older /w/repo (both)', 'outside', 'picked /w/repo'] },
    { cwd: '/w/repo', verdicts: ['older /w/repo (both)', 'outside', 'picked /w/repo'] },
    { cwd: '/w/other/x', verdicts: ['outside', 'outside', 'picked /w/other'] },
    { cwd: '/w/repository', verdicts: ['outside', 'outside', 'outside'] },
    { cwd: '/elsewhere', verdicts: ['outside', 'outside', 'outside'] },
  ];
  for (const row of table) {
    test(`for ${row.cwd}: ${row.verdicts.join(' | ')}`, () => {
      const verdicts = decideWindows(windows, row.cwd).map(({ verdict }) =>
        verdict.kind === 'outside' ? 'outside' : verdict.kind === 'picked' ? `picked ${verdict.folder}` : `${verdict.kind} ${verdict.folder} (${verdict.picked.name})`,
      );
      assert.deepStrictEqual(verdicts, row.verdicts);
    });
  }

  test('the window with the deepest folder holding the working folder wins; ties go to the newest; none outside', () => {
    assert.strictEqual(pickWindow(windows, '/w/repo/packages/app/src'), app);
    assert.strictEqual(pickWindow(windows, '/w/repo/docs'), both, 'same depth: the newest');
    assert.strictEqual(pickWindow(windows, '/w/repository'), undefined, '/w/repository is not inside /w/repo');
    assert.strictEqual(pickWindow([], '/w/repo'), undefined);
  });
});
