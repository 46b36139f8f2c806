import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, numbered, workspaceRoot } from './helpers';

const FILES = 6;
const BRANCH_LINE = 'line 7 (from the other branch)';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=ReadGate Test', '-c', 'user.email=test@readgate.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe' });
}

/** A repository in the workspace with two branches that differ in every other file (line 7). */
function repository(): { root: string; files: string[] } {
  const root = path.join(workspaceRoot(), `repo-${process.pid}-${Date.now()}`);
  fs.mkdirSync(root);
  git(root, 'init', '-q');
  const files = Array.from({ length: FILES }, (_, i) => path.join(root, `module${i}.txt`));
  for (const file of files) fs.writeFileSync(file, numbered(12));
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'main');
  git(root, 'checkout', '-q', '-b', 'other');
  files.forEach((file, i) => i % 2 && fs.writeFileSync(file, numbered(12).replace('line 7\n', `${BRANCH_LINE}\n`)));
  git(root, 'commit', '-q', '-am', 'other');
  git(root, 'checkout', '-q', 'main');
  return { root, files };
}

suite('a git checkout under a session', () => {
  test('after switching branches, unchanged seen lines edit, changed seen lines are refused with a diff naming git, and the ledger lists each file once', async function () {
    this.timeout(90_000);
    const { root, files } = repository();
    const session = (await api()).openSession({ id: 'git-session', label: 'Git agent' });
    // Watchers start asynchronously; the repository's files and .git must be watched before the checkout.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // module1 is read in part (lines 1–5), so git's change to its line 7 is outside what the session saw.
    for (const [i, file] of files.entries()) assert.strictEqual((await session.read(file, i === 1 ? { offset: 1, limit: 5 } : {})).ok, true);
    const birthBefore = fs.statSync(files[1]).birthtimeMs;
    git(root, 'checkout', '-q', 'other');
    // git unlinks and re-creates: often on the very inode it freed, but as a new file.
    assert.notStrictEqual(fs.statSync(files[1]).birthtimeMs, birthBefore, 'test premise: git replaced the file');
    for (const [i, file] of files.entries()) assert.strictEqual(await session.check(file), i % 2 ? 'stale' : 'fresh', path.basename(file));

    // The watcher's events (and git's HEAD and index events) arrive asynchronously: the ledger report names
    // git once they did.
    const ledger = async (): Promise<string> => {
      await vscode.commands.executeCommand('readgate.showLedger', { kind: 'session', id: 'git-session' });
      return vscode.window.activeTextEditor?.document.getText() ?? '';
    };
    let report = '';
    for (let i = 0; i < 60 && (report.match(/changed by a git operation/g)?.length ?? 0) < FILES / 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      report = await ledger();
    }
    assert.strictEqual(report.match(/changed by a git operation/g)?.length, FILES / 2, report);
    for (const file of files) assert.strictEqual(report.split(`${path.basename(file)} |`).length - 1, 1, `${path.basename(file)} is not listed exactly once:\n${report}`);

    // Files git did not touch, and files whose seen lines git did not change, need no new read.
    assert.strictEqual((await session.edit(files[0], [{ oldString: 'line 3\n', newString: 'three\n' }])).ok, true);
    const carried = await session.edit(files[1], [{ oldString: 'line 2\n', newString: 'two\n' }]);
    assert.strictEqual(carried.ok, true, carried.message);
    const refused = await session.edit(files[3], [{ oldString: 'line 7\n', newString: 'seven\n' }]);
    assert.strictEqual(refused.code, 'FILE_CHANGED_SINCE_READ');
    assert.match(refused.message ?? '', /changed since you read it \(by a git operation\)/);
    assert.ok((refused.message ?? '').includes(`+${BRANCH_LINE}`), refused.message);
    assert.strictEqual(fs.readFileSync(files[3], 'utf8'), numbered(12).replace('line 7\n', `${BRANCH_LINE}\n`));
    // The diff counts as seen: the corrected edit goes through without a read.
    assert.strictEqual((await session.edit(files[3], [{ oldString: `${BRANCH_LINE}\n`, newString: 'seven\n' }])).ok, true);

    report = await ledger();
    for (const file of files) assert.strictEqual(report.split(`${path.basename(file)} |`).length - 1, 1, `${path.basename(file)} is listed more than once after edits:\n${report}`);
    if (harness.isAvailable) {
      await vscode.commands.executeCommand('workbench.view.extension.readgate');
      const sidebar = await harness.waitFor('the session in the Sessions view', async () => {
        // The Sessions view only: the Agent Changes view below it names the files the agent changed.
        const text = (await harness.workbenchTexts('.part.sidebar .pane:has(> .pane-header:has-text("Sessions"))')).join('\n');
        return text.includes('Git agent') && text.includes(path.basename(files[0])) ? text : undefined;
      });
      for (const file of files) assert.ok(sidebar.split(path.basename(file)).length - 1 <= 1, `${path.basename(file)} is shown twice:\n${sidebar}`);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    session.dispose();
    // git's HEAD and index events colour file changes for a few seconds: let them pass before the next suite
    // writes files of its own.
    await new Promise((resolve) => setTimeout(resolve, 3500));
  });
});
