import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../helpers/repoRoot';
import { decideApproval, isProtected } from '../../../src/vscode/approval/approvalPolicy';
import { DEFAULT_CHAT_TOOLS, DEFAULT_PROTECTED_GLOBS } from '../../../src/vscode/configDefaults';

const facts = (over: Partial<Parameters<typeof decideApproval>[0]> = {}) => ({
  mode: 'always' as const,
  trusted: true,
  protectedGlobs: DEFAULT_PROTECTED_GLOBS,
  files: [{ path: '/w/src/a.ts', relative: 'src/a.ts' }],
  granted: new Set<string>(),
  ...over,
});

suite('approval policy', () => {
  test('always: every change is reviewed unless this session was granted the file', () => {
    assert.strictEqual(decideApproval(facts()).ask, true);
    assert.strictEqual(decideApproval(facts({ granted: new Set(['/w/src/a.ts']) })).ask, false);
  });

  test('sensitive: only protected files and files outside the workspace are reviewed', () => {
    assert.strictEqual(decideApproval(facts({ mode: 'sensitive' })).ask, false);
    assert.strictEqual(decideApproval(facts({ mode: 'sensitive', files: [{ path: '/w/.env', relative: '.env' }] })).ask, true);
    assert.strictEqual(decideApproval(facts({ mode: 'sensitive', files: [{ path: '/elsewhere/x', relative: undefined }] })).ask, true);
  });

  test('never: nothing is reviewed except protected files and files outside the workspace', () => {
    assert.strictEqual(decideApproval(facts({ mode: 'never' })).ask, false);
    assert.strictEqual(decideApproval(facts({ mode: 'never', files: [{ path: '/w/.vscode/settings.json', relative: '.vscode/settings.json' }] })).ask, true);
    // Files outside the workspace count as protected (issue: "files outside the workspace always ask").
    assert.deepStrictEqual(decideApproval(facts({ mode: 'never', files: [{ path: '/etc/hosts', relative: undefined }] })), { ask: true, why: '/etc/hosts is outside the workspace' });
  });

  test('a grant never covers a file outside the workspace', () => {
    const outside = { path: '/home/me/notes.md', relative: undefined };
    assert.strictEqual(decideApproval(facts({ files: [outside], granted: new Set([outside.path]) })).ask, true);
  });

  test('protected files are reviewed even when the session was granted them', () => {
    const lock = { path: '/w/package-lock.json', relative: 'package-lock.json' };
    assert.strictEqual(decideApproval(facts({ files: [lock], granted: new Set([lock.path]) })).ask, true);
  });

  test('a move counts its destination: moving a file onto a protected path or out of the workspace is reviewed', () => {
    // Only the moved file's own path was checked before: an agent could move src/x.json to .vscode/settings.json unreviewed.
    const source = { path: '/w/src/x.json', relative: 'src/x.json', removesOrMoves: true };
    assert.strictEqual(decideApproval(facts({ mode: 'never', files: [source, { path: '/w/.vscode/settings.json', relative: '.vscode/settings.json', removesOrMoves: true }] })).ask, true);
    assert.strictEqual(decideApproval(facts({ mode: 'never', files: [source, { path: '/tmp/x.json', relative: undefined, removesOrMoves: true }] })).ask, true);
    assert.strictEqual(decideApproval(facts({ mode: 'never', files: [source, { path: '/w/lib/x.json', relative: 'lib/x.json', removesOrMoves: true }] })).ask, false);
  });

  test('a revert is reviewed whatever the mode: it is merged with what changed since, and the user sees the result', () => {
    for (const mode of ['always', 'sensitive', 'never'] as const) {
      assert.deepStrictEqual(decideApproval(facts({ mode, revert: true, granted: new Set(['/w/src/a.ts']) })), { ask: true, why: 'a revert is always reviewed' });
    }
  });

  test('a change let through says by what, for the change history: a grant of the session, or the policy', () => {
    assert.deepStrictEqual(decideApproval(facts({ granted: new Set(['/w/src/a.ts']) })), { ask: false, by: 'grant' });
    assert.deepStrictEqual(decideApproval(facts({ mode: 'sensitive' })), { ask: false, by: 'policy' });
    assert.deepStrictEqual(decideApproval(facts({ mode: 'never' })), { ask: false, by: 'policy' });
  });

  test('a grant covers edits only: deleting or moving a granted file is reviewed', () => {
    // "Don't ask again for these files" was given for edits; it must not let the session delete them unseen.
    const granted = new Set(['/w/src/a.ts']);
    assert.strictEqual(decideApproval(facts({ granted, files: [{ path: '/w/src/a.ts', relative: 'src/a.ts', removesOrMoves: true }] })).ask, true);
    assert.strictEqual(decideApproval(facts({ granted, files: [{ path: '/w/src/a.ts', relative: 'src/a.ts', removesOrMoves: false }] })).ask, false);
  });

  test('an untrusted workspace reviews everything, whatever the mode', () => {
    assert.deepStrictEqual(decideApproval(facts({ mode: 'never', trusted: false })), { ask: true, why: 'the workspace is not trusted' });
  });

  test('the default protected globs cover VS Code settings, git, env files, lock files and workspaces', () => {
    const protectedPaths = [
      '.vscode/settings.json', 'packages/web/.vscode/tasks.json', // nested folders too, not only the root's
      '.git/config', 'vendor/lib/.git/config', 'worktree/.git', // a submodule's or worktree's git data
      '.env', 'app/.env.local', '.envrc', '.env-production',
      'team.code-workspace', 'web/pnpm-lock.yaml', 'go.sum', 'npm-shrinkwrap.json', 'bun.lock', 'py/Pipfile.lock', 'uv.lock',
    ];
    for (const path of protectedPaths) assert.ok(isProtected(path, DEFAULT_PROTECTED_GLOBS), path);
    for (const path of ['src/env.ts', '.github/workflows/ci.yml', 'package.json', 'docs/environment.md']) assert.ok(!isProtected(path, DEFAULT_PROTECTED_GLOBS), path);
  });
});

suite('approval settings in the manifest', () => {
  test('the protected-globs default in package.json is the one the policy uses', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default: unknown }> } } };
    assert.deepStrictEqual(manifest.contributes.configuration.properties['readgate.approval.protected'].default, DEFAULT_PROTECTED_GLOBS);
  });

  test('the chat tools default in package.json is the one the participant uses', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default: unknown }> } } };
    assert.deepStrictEqual(manifest.contributes.configuration.properties['readgate.chat.additionalTools'].default, DEFAULT_CHAT_TOOLS);
  });

  test('settings a repository could use to loosen the guard count only from user or machine settings', () => {
    // A cloned repository's .vscode/settings.json must not switch review off, widen the roots or add tools.
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } }; contributes: { configuration: { properties: Record<string, { scope?: string }> } } };
    const properties = manifest.contributes.configuration.properties;
    for (const key of ['readgate.approval.mode', 'readgate.approval.protected', 'readgate.paths.extraRoots', 'readgate.chat.additionalTools']) {
      assert.strictEqual(properties[key].scope, 'machine', key);
      assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(key), key);
    }
  });
});
