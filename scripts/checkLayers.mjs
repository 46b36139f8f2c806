// Layer rule (STYLE.md "Repository layout"): nothing under src/core may import `vscode` (not even types) or
// anything under src/vscode, so dist/core.js stays a plain Node library. TypeScript's own pre-processor finds
// every import form: import/export from, `import type`, require(), import(), `import x = require()`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name)) yield full;
  }
}

/** Returns `file:line: message` strings, one per forbidden import under `<root>/src/core`. */
export function findLayerViolations(root) {
  const coreDir = path.join(root, 'src/core');
  const adapterDir = path.join(root, 'src/vscode');
  const violations = [];
  for (const file of sourceFiles(coreDir)) {
    const text = fs.readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const lineStarts = ts.computeLineStarts(text);
    for (const imported of importedFiles) {
      const spec = imported.fileName;
      const line = ts.computeLineAndCharacterOfPosition(lineStarts, imported.pos).line + 1;
      const where = `${path.relative(root, file)}:${line}`;
      if (spec === 'vscode' || spec.startsWith('vscode/')) {
        violations.push(`${where}: imports '${spec}'; src/core must not depend on the vscode API`);
      } else if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        if (target === adapterDir || target.startsWith(adapterDir + path.sep)) {
          violations.push(`${where}: imports '${spec}' from src/vscode; adapters depend on core, never the reverse`);
        }
      }
    }
  }
  return violations;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const violations = findLayerViolations(root);
  if (violations.length) {
    console.error(`Layer check failed:\n${violations.map((v) => `  ${v}`).join('\n')}`);
    process.exit(1);
  }
  console.log('Layer check: src/core imports neither vscode nor src/vscode.');
}
