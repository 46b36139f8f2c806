import * as assert from 'assert';
import { spawnSync } from 'child_process';
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
});
