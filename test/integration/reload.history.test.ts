/**
 * The second window on the first one's workspace and state (runIntegration.mjs's reload phase), as after
 * Developer: Reload Window: the change an agent made before the reload is still in the Agent Changes view, its
 * past versions still open in the diff editor, and it can still be reverted; a change's problems mark stays.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, nextReview, REVIEW_HOOK } from './helpers';

interface DrawnItem {
  label: string;
  description: string;
  children: DrawnItem[];
}

interface Noted {
  changeId: string;
  sessionId: string;
  file: string;
}

function noted(): Noted {
  const file = path.join(process.env.READGATE_TEST_OUT ?? '', 'before-reload.json');
  assert.ok(fs.existsSync(file), `the first window left no note of its change (${file}): did its history suite run?`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Noted;
}

suite('after a window reload', () => {
  test('the change made before the reload is listed, in the view and by the API, with its versions', async () => {
    const { changeId, sessionId, file } = noted();
    const [record] = await (await api()).history({ sessionId });
    const folder = await vscode.commands.executeCommand<string>('readgate._test.historyFolder');
    assert.ok(record, `the change made before the reload is on record (history in ${folder}: ${JSON.stringify((await (await api()).history()).map((r) => r.id))})`);
    assert.deepStrictEqual([record.id, record.label, record.explanation], [changeId, 'Agent before the reload', 'Change it before the reload']);
    const session = await harness.waitFor('the session in the Agent Changes view', async () =>
      ((await vscode.commands.executeCommand<DrawnItem[]>('readgate._test.agentChanges', { refresh: true })) ?? []).find((item) => item.label === 'Agent before the reload'),
    );
    assert.match(session.description, /1 change · \+1 −1/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'changed before the reload\nkept line\n');
  });

  // The marks are in the workspace state; problemMarks.test.ts notes the change it saw marked.
  test('a change marked with the errors it introduced keeps its mark', async function () {
    const note = path.join(process.env.READGATE_TEST_OUT ?? '', 'mark-before-reload.json');
    const { workspace, label, changeId } = fs.existsSync(note) ? (JSON.parse(fs.readFileSync(note, 'utf8')) as { workspace: string; label: string; changeId: string }) : { workspace: '', label: '', changeId: '' };
    // A note of an earlier run (its own workspace): this run's first window did not run that suite.
    if (workspace !== vscode.workspace.workspaceFolders?.[0]?.uri.fsPath) this.skip();
    const agent = await harness.waitFor('the marked agent in the Agent Changes view', async () =>
      ((await vscode.commands.executeCommand<DrawnItem[]>('readgate._test.agentChanges', { refresh: true })) ?? []).find((item) => item.label === label),
    );
    assert.ok((await (await api()).history()).some((each) => each.id === changeId), `the marked change ${changeId} is on record`);
    assert.match(agent.children.find((change) => change.label === 'Quote the prices')?.description ?? '', /^2 new errors · /, JSON.stringify(agent.children));
  });

  test('the change made before the reload can be reverted: reviewed, then the file is as it was', async () => {
    const { changeId, file } = noted();
    const revert = (await api()).revert({ changeId });
    const request = await nextReview();
    await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    const result = await revert;
    assert.strictEqual(result.ok, true, result.message);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'before the reload\nkept line\n');
  });
});
