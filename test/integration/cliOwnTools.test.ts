/**
 * An agent CLI in a terminal keeps its own tools, and this window judges them: the real Claude Code, set up as the
 * README says (`setup claude-code --own-tools`), on a scripted model, in a folder of this window's workspace. Its
 * hooks find this window by that folder (the entry the window publishes in ReadGate's home); the change is in
 * Agent Changes (the extension API's history) under the Claude Code conversation, and with review on the hook
 * waits for the review panel. Judged by what the model received and by the disk.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { ensureAgentCli } from '../agents/install';
import type { AgentRun } from '../agents/runAgent';
import { runAgent } from '../agents/runAgent';
import { call, say, steps } from '../agents/script';
import { api, nextReview, REVIEW_HOOK, workspaceRoot } from './helpers';

const settings = () => vscode.workspace.getConfiguration('readgate');
const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1} of a`).join('\n') + '\n';
const repoRoot = path.resolve(__dirname, '../../..');
const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');

/** A folder of this window's workspace with a.txt, set up for Claude Code with its own tools. */
function project(): { folder: string; file: string } {
  const folder = fs.mkdtempSync(path.join(workspaceRoot(), 'claude-own-'));
  const file = path.join(folder, 'a.txt');
  fs.writeFileSync(file, lines(600));
  return { folder, file };
}

async function claude(folder: string, script: Parameters<typeof runAgent>[0]['script']): Promise<AgentRun> {
  return runAgent({
    cli: 'claude',
    cwd: folder,
    prompt: 'Edit a.txt.',
    script,
    projectConfigOnly: true,
    trustProject: true,
    settings: { permissions: { allow: ['Read', 'Edit', 'Write'] } },
    // This window's home: where its hook entry is, so the CLI's hooks find it.
    env: { READGATE_HOME: process.env.READGATE_HOME ?? '' },
    mcpServers: {},
    setupCommands: [`node ${BRIDGE} setup claude-code --own-tools --project ${folder}`],
    timeoutMs: 150_000,
  });
}

const editOf = (file: string, line: number, to = `line ${line} edited`) => call('Edit', { file_path: file, old_string: `line ${line} of a\n`, new_string: `${to}\n` });
const editResults = (run: AgentRun): string[] => run.toolResults.filter((record) => record.tool === 'Edit').map((record) => record.result?.text ?? '');

suite('an agent CLI in a terminal: Claude Code with its own tools, judged by this window', () => {
  suiteSetup(function () {
    this.timeout(600_000);
    ensureAgentCli('claude');
  });

  test('a Read, then an Edit of a line it showed: applied and in Agent Changes under the Claude Code conversation; an Edit of a line never shown: denied', async function () {
    this.timeout(200_000);
    const { folder, file } = project();
    const run = await claude(folder, steps([call('Read', { file_path: file, offset: 1, limit: 100 }), editOf(file, 50), editOf(file, 500), say('Done.')]));
    assert.strictEqual(run.setup[0].status, 0, run.setup[0].stderr);
    const [applied, denied] = editResults(run);
    assert.match(applied, /has been updated successfully/, applied);
    assert.match(denied, /^PreToolUse:Edit hook error: EDIT_OUTSIDE_SEEN_RANGE/, denied);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), lines(600).replace('line 50 of a\n', 'line 50 edited\n'));
    const history = await (await api()).history({ path: file });
    assert.strictEqual(history.length, 1, JSON.stringify(history));
    assert.strictEqual(history[0].tool, 'Edit');
    assert.strictEqual(history[0].surface, 'hook');
    assert.match(history[0].label, /^Claude Code /);
  });

  test("with review on, the hook waits for the review panel: an approved Edit is applied, a rejected one denied with the user's reason", async function () {
    this.timeout(200_000);
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    try {
      const { folder, file } = project();
      const decide = (async () => {
        const first = await waitForReview();
        assert.match(JSON.stringify(first.files), /a\.txt/);
        await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'approve', id: first.id, revision: first.revision, rejectedHunks: {} });
        await new Promise((resolve) => setTimeout(resolve, 300));
        const second = await waitForReview();
        await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'reject', id: second.id, reason: 'not line 3' });
      })();
      const run = await claude(folder, steps([call('Read', { file_path: file, offset: 1, limit: 10 }), editOf(file, 2, 'two'), editOf(file, 3, 'three'), say('Done.')]));
      await decide;
      const [approved, rejected] = editResults(run);
      assert.match(approved, /has been updated successfully/, approved);
      assert.match(rejected, /REJECTED_BY_USER[\s\S]*not line 3/, rejected);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), lines(600).replace('line 2 of a\n', 'two\n'));
    } finally {
      await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    }
  });
});

/** The next change waiting for review: the CLI takes a while to start, so this waits longer than nextReview alone. */
async function waitForReview(): Promise<Awaited<ReturnType<typeof nextReview>>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await nextReview();
    } catch (error) {
      if (attempt >= 24) throw error;
    }
  }
}
