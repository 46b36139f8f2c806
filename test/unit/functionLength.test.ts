import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';
import { makeTempDir } from './helpers/tempDir';

type LengthCheck = { findLongFunctions(root: string, max?: number): string[] };
const loadCheck = (): Promise<LengthCheck> => import(path.join(repoRoot, 'scripts/checkFunctionLength.mjs'));

suite('function length check (every function in src under 60 lines)', () => {
  test('passes on this repository', async () => {
    const { findLongFunctions } = await loadCheck();
    assert.deepStrictEqual(findLongFunctions(repoRoot), []);
  });

  test('reports functions, methods and arrow functions over the limit, and counts from the first line to the closing brace', async () => {
    const { findLongFunctions } = await loadCheck();
    const root = makeTempDir();
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const file = path.join(root, 'src/core/deep/long.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [`export function fits() {\n${body(57)}\n}`, `export function tooLong() {\n${body(58)}\n}`, `class A {\n  method() {\n${body(60)}\n  }\n}`, `export const arrow = () => {\n${body(70)}\n};`].join('\n'),
    );
    const found = findLongFunctions(root);
    assert.deepStrictEqual(
      found.map((f) => f.replace(/^.*?: /, '')),
      ['tooLong has 60 lines (at most 59)', 'method has 62 lines (at most 59)', '(a function expression) has 72 lines (at most 59)'],
    );
    assert.ok(found[0].startsWith(path.join('src', 'core', 'deep', 'long.ts') + ':60:'), found[0]);
  });

  test('covers the MCP surface and the VS Code adapter as well as the core', async () => {
    const { findLongFunctions } = await loadCheck();
    const root = makeTempDir();
    const body = Array.from({ length: 58 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    for (const [folder, name] of [['src/mcp', 'serve'], ['src/vscode/commands', 'activate'], ['src/core', 'read']]) {
      fs.mkdirSync(path.join(root, folder), { recursive: true });
      fs.writeFileSync(path.join(root, folder, `${name}.ts`), `export function ${name}() {\n${body}\n}\n`);
    }
    const found = findLongFunctions(root).map((f) => f.split(':')[0]).sort();
    assert.deepStrictEqual(found, [path.join('src', 'core', 'read.ts'), path.join('src', 'mcp', 'serve.ts'), path.join('src', 'vscode', 'commands', 'activate.ts')]);
  });
});
