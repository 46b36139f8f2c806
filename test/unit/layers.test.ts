import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';
import { makeTempDir } from './helpers/tempDir';

type LayerCheck = { findLayerViolations(root: string): string[]; CORE_RANKS: { unit: string; rank: number; why: string }[] };
const loadCheck = (): Promise<LayerCheck> => import(path.join(repoRoot, 'scripts/checkLayers.mjs'));

function writeFile(root: string, relative: string, text: string): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

suite('layer check (src/core stays headless and ranked, adapters use its public surface)', () => {
  test('passes on this repository', async () => {
    const { findLayerViolations } = await loadCheck();
    assert.deepStrictEqual(findLayerViolations(repoRoot), []);
  });

  test('reports every form of vscode import under src/core', async () => {
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/guard.ts', "import * as vscode from 'vscode';\n");
    writeFile(root, 'src/core/types.ts', "\n\nimport type { Uri } from 'vscode';\n");
    writeFile(root, 'src/core/index.ts', "const v = require('vscode');\n");
    writeFile(root, 'src/core/text/deep/d.ts', "export async function f() { return import('vscode'); }\n");
    const violations = findLayerViolations(root);
    assert.strictEqual(violations.length, 4, violations.join('\n'));
    assert.ok(violations.some((v) => v.startsWith(path.join('src', 'core', 'types.ts') + ':3:')));
  });

  test('inside src/core a module imports only its own folder or a lower-ranked one', async () => {
    // The upward imports this once had: refusal wording and the path policy reaching into each other, building
    // blocks into the read operation, a building block into the public types.
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/refusals/editRefusal.ts', "import type { Limits } from '../context/guardContext';\nimport type { Edit } from '../types';\n");
    writeFile(root, 'src/core/path/pathPolicy.ts', "import { pathInvalid } from '../refusals/pathInvalid';\n");
    writeFile(root, 'src/core/text/loadText.ts', "import type { ReadCall } from '../read/readOperation';\n");
    writeFile(root, 'src/core/mutate/commit.ts', "import { runMutation } from '../session/runMutation';\n");
    // Equal ranks need nothing of each other: an import between them is upward too.
    writeFile(root, 'src/core/patch/planPatch.ts', "import { planRevert } from '../history/planRevert';\n");
    // Allowed: a module importing a lower rank, or its own folder.
    writeFile(root, 'src/core/session/guardSession.ts', "import { planChange } from '../mutate/planChange';\nimport { refuse } from '../refusals/refusal';\nimport './callArguments';\n");
    writeFile(root, 'src/core/mutate/planChange.ts', "import type { GuardContext } from '../context/guardContext';\nimport { loadFile } from '../text/loadText';\nimport type { Edit } from '../types';\n");
    writeFile(root, 'src/core/refusals/refusal.ts', "import { displayPath } from '../path/displayPath';\nimport { formatCount } from '../text/formatCount';\n");
    const violations = findLayerViolations(root).sort();
    assert.deepStrictEqual(
      violations.map((v) => v.split(': ')[0]),
      ['mutate/commit.ts:1', 'patch/planPatch.ts:1', 'path/pathPolicy.ts:1', 'refusals/editRefusal.ts:1', 'refusals/editRefusal.ts:2', 'text/loadText.ts:1'].map((file) => path.join('src', 'core', ...file.split('/'))),
      violations.join('\n'),
    );
    assert.match(violations[0], /imports '\.\.\/session\/runMutation' \(session\/, rank \d+\) from mutate\/ \(rank \d+\)/);
    assert.match(violations[1], /imports '\.\.\/history\/planRevert' \(history\/, rank 7\) from patch\/ \(rank 7\)/);
  });

  test('inside src/core no files import each other in a cycle, of two files or more', async () => {
    // Each cycle this once had was two files of one folder, which the ranks cannot see.
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/read/readOperation.ts', "import { showLoaded } from './showRange';\n");
    writeFile(root, 'src/core/read/showRange.ts', "import type { ReadCall } from './readOperation';\n");
    writeFile(root, 'src/core/text/a.ts', "import { b } from './b';\n");
    writeFile(root, 'src/core/text/b.ts', "export { c } from './c.js';\n");
    writeFile(root, 'src/core/text/c.ts', "\nconst a = require('./a');\n");
    writeFile(root, 'src/core/text/d.ts', "import { a } from './a';\n");
    const violations = findLayerViolations(root).sort();
    assert.deepStrictEqual(violations, [
      `${path.join('src', 'core', 'read', 'readOperation.ts')}:1: imports './showRange', and the imports lead back: read/readOperation.ts → read/showRange.ts → read/readOperation.ts; move what they share into a lower module`,
      `${path.join('src', 'core', 'text', 'a.ts')}:1: imports './b', and the imports lead back: text/a.ts → text/b.ts → text/c.ts → text/a.ts; move what they share into a lower module`,
    ]);
  });

  test('every folder and top-level file of src/core has a rank', async () => {
    const { findLayerViolations, CORE_RANKS } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/gadgets/one.ts', 'export {};\n');
    writeFile(root, 'src/core/gadgets/two.ts', 'export {};\n');
    writeFile(root, 'src/core/helpers.ts', 'export {};\n');
    writeFile(root, 'src/core/text/loadText.ts', 'export {};\n');
    assert.deepStrictEqual(findLayerViolations(root).map((v) => v.split(': ')[0]).sort(), [path.join('src', 'core', 'gadgets/'), path.join('src', 'core', 'helpers.ts')].sort());
    const folders = fs.readdirSync(path.join(repoRoot, 'src/core'), { withFileTypes: true }).map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    assert.deepStrictEqual(folders.filter((unit) => !CORE_RANKS.some((entry) => entry.unit === unit)), []);
    assert.ok(CORE_RANKS.every((entry) => entry.why.length > 0));
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
      `${path.join('src', 'vscode', 'approval', 'approvalPolicy.ts')}:1: imports '../config', and the imports lead back: approval/approvalPolicy.ts → config.ts → approval/approvalPolicy.ts; move what they share into a lower module`,
      `${path.join('src', 'vscode', 'config.ts')}:4: imports './approval/approvalPolicy'; the settings reader imports only util/ and configDefaults.ts of src/vscode (move what it needs there)`,
      `${path.join('src', 'vscode', 'configDefaults.ts')}:1: imports './chat/defaultTools'; the settings reader imports only util/ and configDefaults.ts of src/vscode (move what it needs there)`,
    ]);
  });

  test('refuses an import cycle in the adapters: a view that imports the command that imports its types', async () => {
    // The Sessions view named its commands by importing them, and they imported the view's node types.
    const { findLayerViolations } = await loadCheck();
    const root = makeTempDir();
    writeFile(root, 'src/core/index.ts', 'export {};\n');
    writeFile(root, 'src/vscode/views/sessionsView.ts', "import { ShowLedgerCommand } from '../commands/showLedger';\n");
    writeFile(root, 'src/vscode/commands/showLedger.ts', "import type { SessionsNode } from '../views/sessionsView';\n");
    assert.deepStrictEqual(findLayerViolations(root), [
      `${path.join('src', 'vscode', 'commands', 'showLedger.ts')}:1: imports '../views/sessionsView', and the imports lead back: commands/showLedger.ts → views/sessionsView.ts → commands/showLedger.ts; move what they share into a lower module`,
    ]);
    writeFile(root, 'src/vscode/views/sessionsView.ts', "import { COMMAND_IDS } from '../commandIds';\n");
    writeFile(root, 'src/vscode/commandIds.ts', 'export const COMMAND_IDS = {};\n');
    assert.deepStrictEqual(findLayerViolations(root), []);
  });
});
