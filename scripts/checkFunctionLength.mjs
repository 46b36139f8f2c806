// Every function in src (the core, the MCP surface and the VS Code adapter) fits on a screen: under 60 lines from
// its first line to its closing brace (CONTRIBUTING, "Scripts and layout"). Long functions are where the guard's
// order of checks, and the wiring around it, got hard to read.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 59;

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

/** `file:line: name has N lines` for each function under `<root>/src` longer than the limit. */
export function findLongFunctions(root, max = MAX_FUNCTION_LINES) {
  const found = [];
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        const lines = last - first + 1;
        const name = node.name ? node.name.getText(source) : '(a function expression)';
        if (lines > max) found.push(`${path.relative(root, file)}:${first + 1}: ${name} has ${lines} lines (at most ${max})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const long = findLongFunctions(root);
  if (long.length) {
    console.error(`Function length check failed: split these into named steps.\n${long.map((l) => `  ${l}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`Function length check: every function in src has at most ${MAX_FUNCTION_LINES} lines.`);
}
