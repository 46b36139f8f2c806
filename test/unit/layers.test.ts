import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';
import { makeTempDir } from './helpers/tempDir';

type LayerCheck = { findLayerViolations(root: string): string[] };
const loadCheck = (): Promise<LayerCheck> => import(path.join(repoRoot, 'scripts/checkLayers.mjs'));

function writeFile(root: string, relative: string, text: string): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

suite('layer check (src/core stays headless)', () => {
  test('passes on this repository', async () => {
    const { findLayerViolations } = await loadCheck();
    assert.deepStrictEqual(findLayerViolations(repoRoot), []);
  });

  test('reports every form of vscode import under src/core', async () => {
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/a.ts', "import * as vscode from 'vscode';\n");
    writeFile(root, 'src/core/b.ts', "\n\nimport type { Uri } from 'vscode';\n");
    writeFile(root, 'src/core/c.ts', "const v = require('vscode');\n");
    writeFile(root, 'src/core/deep/d.ts', "export async function f() { return import('vscode'); }\n");
    const violations = findLayerViolations(root);
    assert.strictEqual(violations.length, 4, violations.join('\n'));
    assert.ok(violations.some((v) => v.startsWith(path.join('src', 'core', 'b.ts') + ':3:')));
  });

  test('reports imports of the adapter layer from core', async () => {
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/guard.ts', "import { Log } from '../vscode/log';\n");
    writeFile(root, 'src/vscode/log.ts', 'export class Log {}\n');
    writeFile(root, 'src/vscode/extension.ts', "import * as vscode from 'vscode';\nimport '../core/guard';\n");
    assert.deepStrictEqual(findLayerViolations(root), [
      `${path.join('src', 'core', 'guard.ts')}:1: imports '../vscode/log' from src/vscode; adapters depend on core, never the reverse`,
    ]);
  });
});
