import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';

suite('dist/core.js', () => {
  // The headless library is used by agents outside VS Code: it must load in plain Node, where no `vscode`
  // module exists. A fresh process proves it without the test runner's module cache or paths.
  test('loads in plain Node without vscode and exposes the error codes', () => {
    const core = path.join(repoRoot, 'dist/core.js');
    const script = `const core = require(${JSON.stringify(core)}); process.stdout.write(JSON.stringify(core.ERROR_CODES));`;
    const result = spawnSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    assert.strictEqual(result.status, 0, `plain Node failed to load dist/core.js (run npm run build first):\n${result.stderr}`);
    const codes = JSON.parse(result.stdout) as string[];
    assert.ok(codes.includes('EDIT_REQUIRES_PRIOR_READ'));
    assert.ok(codes.includes('FILE_CHANGED_SINCE_READ'));
  });

  test('ships type declarations next to it', () => {
    const result = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(path.join(repoRoot, 'dist/core.d.ts'))})`]);
    assert.strictEqual(result.status, 0, 'dist/core.d.ts is missing');
  });

  // Adapters and headless callers implement the approve port from the shipped declarations alone: what each
  // field means, how a decision's files override the proposal and what reaches the agent must be in them.
  test('ships the approval port types with a doc comment on each type and every field', () => {
    const typesFile = path.join(repoRoot, 'dist/core-types/types.d.ts');
    assert.ok(fs.existsSync(typesFile), `${typesFile} is missing (run npm run build first)`);
    const index = fs.readFileSync(path.join(repoRoot, 'dist/core-types/index.d.ts'), 'utf8');
    for (const name of ['ApprovalRequest', 'ApprovalDecision', 'ApprovalFile', 'ApprovalConflict']) assert.match(index, new RegExp(`\\b${name}\\b`), `index.d.ts does not export ${name}`);
    const lines = fs.readFileSync(typesFile, 'utf8').split('\n');
    const declarations: Record<string, string[]> = {
      'export interface ApprovalFile ': ['path', 'created', 'before', 'after', 'diff'],
      'export interface ApprovalRequest ': ['sessionId', 'operation', 'explanation', 'files', 'signal', 'refresh', 'conflicts'],
      'export interface ApprovalConflict ': ['path', 'reason', 'changeId', 'ranges', 'merged'],
      'export type ApprovalDecision ': ['approved', 'files', 'path', 'content', 'approvedBy', 'takeMerged', 'approved', 'reason'],
    };
    const documented = (at: number): boolean => lines[at - 1]?.trim().endsWith('*/') ?? false;
    for (const [head, fields] of Object.entries(declarations)) {
      const start = lines.findIndex((line) => line.startsWith(head));
      assert.ok(start > 0, `no ${head.trim()} in the declarations`);
      assert.ok(documented(start), `${head.trim()} has no doc comment`);
      const end = lines.findIndex((line, at) => at > start && /^};?$/.test(line));
      let from = start;
      for (const field of fields) {
        const at = lines.findIndex((line, i) => i > from && i < end && new RegExp(`^\\s+${field}\\??[:(]`).test(line));
        assert.ok(at > 0, `${head.trim()} lacks the field ${field}`);
        assert.ok(documented(at), `${head.trim()}: ${field} has no doc comment`);
        from = at;
      }
    }
    const text = lines.join('\n');
    for (const promise of ['per-file lock', 'are ignored', 'REJECTED_BY_USER', 'throws or its promise rejects', 'Aborted when the call is cancelled', 'takeMerged: true']) {
      assert.ok(text.includes(promise), `the approval docs do not say "${promise}"`);
    }
  });
});
