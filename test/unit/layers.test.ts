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

suite('layer check (src/core stays headless, adapters use its public surface)', () => {
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

  test('inside src/core, building blocks never import the parts that run a call, and each part only lower ones', async () => {
    // The upward imports this once had: refusal wording reaching into the operations for a file type or words.
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/refusals/editRefusal.ts', "import type { FileText } from '../context/guardContext';\n");
    writeFile(root, 'src/core/refusals/fileErrorRefusal.ts', "import { specialKindName } from '../session/inputValidation';\n");
    writeFile(root, 'src/core/edit/applyEdits.ts', "import { planChange } from '../mutate/planChange';\n");
    writeFile(root, 'src/core/read/loadText.ts', "import type { ReadCall } from './readOperation';\n");
    writeFile(root, 'src/core/mutate/commit.ts', "import { runMutation } from '../session/runMutation';\n");
    // Allowed: a part importing a lower one, and building blocks importing each other.
    writeFile(root, 'src/core/session/guardSession.ts', "import { planChange } from '../mutate/planChange';\nimport { refuse } from '../refusals/refusal';\n");
    writeFile(root, 'src/core/mutate/planChange.ts', "import type { GuardContext } from '../context/guardContext';\nimport { loadFile } from '../read/loadText';\n");
    writeFile(root, 'src/core/refusals/refusal.ts', "import { displayPath } from '../path/displayPath';\n");
    const violations = findLayerViolations(root).sort();
    assert.deepStrictEqual(
      violations.map((v) => v.split(':')[0]),
      ['edit/applyEdits.ts', 'mutate/commit.ts', 'read/loadText.ts', 'refusals/editRefusal.ts', 'refusals/fileErrorRefusal.ts'].map((file) => path.join('src', 'core', ...file.split('/'))),
      violations.join('\n'),
    );
    assert.match(violations[0], /imports '\.\.\/mutate\/planChange' \(mutate\/\) from building blocks/);
  });

  test('only the session state records to a ledger: reads and changes return what it learns', async () => {
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/read/readOperation.ts', 'export function f(s: any, e: any) {\n  s.ledger.record(e);\n}\n');
    writeFile(root, 'src/core/session/guardSession.ts', 'export function g(s: any) {\n  s.state.ledger.clear();\n}\n');
    writeFile(root, 'src/core/context/sessionState.ts', 'export function h(s: any, e: any) {\n  s.ledger.record(e);\n  s.ledger.clear();\n}\n');
    assert.deepStrictEqual(findLayerViolations(root).map((v) => v.split(': ')[0]).sort(), [path.join('src', 'core', 'read', 'readOperation.ts') + ':2', path.join('src', 'core', 'session', 'guardSession.ts') + ':2']);
  });

  test('reports imports of the adapter layer from core', async () => {
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/guard.ts', "import { Log } from '../vscode/log';\n");
    writeFile(root, 'src/vscode/log.ts', 'export class Log {}\n');
    writeFile(root, 'src/vscode/extension.ts', "import * as vscode from 'vscode';\nimport '../core/index';\n");
    assert.deepStrictEqual(findLayerViolations(root), [
      `${path.join('src', 'core', 'guard.ts')}:1: imports '../vscode/log' from src/vscode; adapters depend on core, never the reverse`,
    ]);
  });

  test('reports adapter imports of core internals, in every form, and allows only src/core/index.ts', async () => {
    // An adapter reaching past index.ts uses code headless callers cannot, and pins internals in place.
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/index.ts', "export { createGuard } from './guard';\n");
    writeFile(root, 'src/vscode/a.ts', "import { createGuard } from '../core/index';\nimport type { Guard } from '../core';\nimport '../core/index.js';\n");
    writeFile(root, 'src/vscode/deep/b.ts', "import type { Limits } from '../../core/operations/context';\n");
    writeFile(root, 'src/vscode/deep/c.ts', "const g = require('../../core/guard');\nexport const h = () => import('../../core/edit/hunks');\n");
    assert.deepStrictEqual(findLayerViolations(root).sort(), [
      `${path.join('src', 'vscode', 'deep', 'b.ts')}:1: imports '../../core/operations/context', a core internal; adapters use only src/core/index.ts (export it there)`,
      `${path.join('src', 'vscode', 'deep', 'c.ts')}:1: imports '../../core/guard', a core internal; adapters use only src/core/index.ts (export it there)`,
      `${path.join('src', 'vscode', 'deep', 'c.ts')}:2: imports '../../core/edit/hunks', a core internal; adapters use only src/core/index.ts (export it there)`,
    ]);
  });

  test('keeps src/mcp free of vscode and of the VS Code adapter, and reached only through its index', async () => {
    // src/mcp runs as plain Node (dist/mcp.js, dist/mcp-bridge.js): a vscode import there fails at start.
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/index.ts', "export {};\n");
    writeFile(root, 'src/core/guard.ts', "import { x } from '../mcp/index';\n");
    writeFile(root, 'src/mcp/index.ts', "export { y } from './server';\n");
    writeFile(root, 'src/mcp/server.ts', "import type { Uri } from 'vscode';\nimport { Log } from '../vscode/log';\nimport '../core/guard';\nimport '../core/index';\n");
    writeFile(root, 'src/vscode/log.ts', "import '../mcp/index';\nimport '../mcp/server';\n");
    assert.deepStrictEqual(findLayerViolations(root).sort(), [
      `${path.join('src', 'core', 'guard.ts')}:1: imports '../mcp/index' from src/mcp; adapters depend on core, never the reverse`,
      `${path.join('src', 'mcp', 'server.ts')}:1: imports 'vscode'; src/mcp runs in plain Node too and must not depend on the vscode API`,
      `${path.join('src', 'mcp', 'server.ts')}:2: imports '../vscode/log' from src/vscode; src/mcp must not depend on the VS Code adapter`,
      `${path.join('src', 'mcp', 'server.ts')}:3: imports '../core/guard', a core internal; adapters use only src/core/index.ts (export it there)`,
      `${path.join('src', 'vscode', 'log.ts')}:2: imports '../mcp/server', an src/mcp internal; use src/mcp/index.ts (export it there)`,
    ]);
  });

  test('keeps the settings reader below every feature: config.ts imports only util/ and configDefaults.ts of the adapter', async () => {
    // config.ts imported the approval policy and the chat participant's defaults, so those features and the
    // settings reader depended on each other; their defaults now live below both, in configDefaults.ts.
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/index.ts', 'export {};\n');
    writeFile(root, 'src/vscode/config.ts', "import '../core/index';\nimport './configDefaults';\nimport './util/dispose';\nimport './approval/approvalPolicy';\n");
    writeFile(root, 'src/vscode/configDefaults.ts', "import { x } from './chat/defaultTools';\n");
    writeFile(root, 'src/vscode/approval/approvalPolicy.ts', "import '../config';\nimport '../configDefaults';\n");
    assert.deepStrictEqual(findLayerViolations(root).sort(), [
      `${path.join('src', 'vscode', 'config.ts')}:4: imports './approval/approvalPolicy'; the settings reader imports only util/ and configDefaults.ts of src/vscode (move what it needs there)`,
      `${path.join('src', 'vscode', 'configDefaults.ts')}:1: imports './chat/defaultTools'; the settings reader imports only util/ and configDefaults.ts of src/vscode (move what it needs there)`,
    ]);
  });
});
