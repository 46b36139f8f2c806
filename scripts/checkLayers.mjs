// Layer rules (STYLE.md "Repository layout"): nothing under src/core may import `vscode` (not even types) or
// anything under src/vscode or src/mcp, so dist/core.js stays a plain Node library; src/mcp (the MCP surface,
// which also runs as plain Node in dist/mcp.js and dist/mcp-bridge.js) imports no `vscode` and nothing of
// src/vscode; and src/vscode and src/mcp reach the core only through src/core/index.ts, so the adapters use the
// same public surface as every other caller of the library; src/vscode reaches src/mcp only through its index.
// Inside src/vscode, the settings reader (config.ts and configDefaults.ts) sits below every feature: of the
// adapter it imports only util/ and configDefaults.ts, so any feature may read settings without a cycle.
// TypeScript's own pre-processor finds every import form: import/export from, `import type`, require(),
// import(), `import x = require()`.
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

const isUnder = (target, dir) => target === dir || target.startsWith(dir + path.sep);

/** Every import of `file` as `{ spec, target, where }` (target: the resolved path of a relative import). */
function* importsOf(root, file) {
  const text = fs.readFileSync(file, 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const lineStarts = ts.computeLineStarts(text);
  for (const imported of importedFiles) {
    const spec = imported.fileName;
    const line = ts.computeLineAndCharacterOfPosition(lineStarts, imported.pos).line + 1;
    const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : undefined;
    yield { spec, target, where: `${path.relative(root, file)}:${line}` };
  }
}

/**
 * Inside src/core the parts that run a call sit above the building blocks they use (edit/, ledger/, path/,
 * patch/, read/, refusals/, version/, …), in this order: what every call runs with (context/), the read
 * operation, the change of files (mutate/), the session boundary (session/, tools/), the guard (guard.ts,
 * index.ts). A module imports its own part or a lower one, never a higher one.
 */
const CORE_PARTS = [
  { part: 'context/', rank: 1 },
  { part: 'read/readOperation.ts', rank: 2 },
  { part: 'read/showRange.ts', rank: 2 },
  { part: 'mutate/', rank: 3 },
  { part: 'session/', rank: 4 },
  { part: 'tools/', rank: 4 },
  { part: 'guard.ts', rank: 5 },
  { part: 'index.ts', rank: 5 },
];

/** The part of src/core a file belongs to (`relative`: its path below src/core, with '/'), and its rank. */
function corePart(relative) {
  const found = CORE_PARTS.find(({ part }) => (part.endsWith('/') ? relative.startsWith(part) : relative === part || relative === part.replace(/\.ts$/, '')));
  return found ?? { part: 'building blocks', rank: 0 };
}

/** Only the session's state records to or clears a ledger: reads and changes return what it learns (`learn`). */
const LEDGER_WRITE = /\bledger\.(record|clear)\(/;
const LEDGER_OWNER = 'context/sessionState.ts';

/** Returns `file:line: message` strings, one per forbidden import under `<root>/src/{core,mcp,vscode}`. */
export function findLayerViolations(root) {
  const coreDir = path.join(root, 'src/core');
  const mcpDir = path.join(root, 'src/mcp');
  const adapterDir = path.join(root, 'src/vscode');
  // A public surface, spelled with or without the file name or extension.
  const indexOf = (dir) => new Set([dir, path.join(dir, 'index'), path.join(dir, 'index.ts'), path.join(dir, 'index.js')]);
  const coreIndex = indexOf(coreDir);
  const mcpIndex = indexOf(mcpDir);
  const isVscode = (spec) => spec === 'vscode' || spec.startsWith('vscode/');
  const violations = [];
  const belowCore = (file) => path.relative(coreDir, file).split(path.sep).join('/');
  for (const file of sourceFiles(coreDir)) {
    const own = corePart(belowCore(file));
    const relative = belowCore(file);
    if (relative !== LEDGER_OWNER && !relative.startsWith('ledger/')) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (LEDGER_WRITE.test(line)) violations.push(`${path.relative(root, file)}:${i + 1}: writes a session ledger; return the entries it learns and let the session record them (src/core/${LEDGER_OWNER})`);
      });
    }
    for (const { spec, target, where } of importsOf(root, file)) {
      const theirs = target && isUnder(target, coreDir) ? corePart(belowCore(target)) : undefined;
      if (theirs && theirs.rank > own.rank) violations.push(`${where}: imports '${spec}' (${theirs.part}) from ${own.part}, a lower part of src/core; building blocks never depend on the parts that run a call`);
      if (isVscode(spec)) {
        violations.push(`${where}: imports '${spec}'; src/core must not depend on the vscode API`);
      } else if (target && (isUnder(target, adapterDir) || isUnder(target, mcpDir))) {
        violations.push(`${where}: imports '${spec}' from ${isUnder(target, mcpDir) ? 'src/mcp' : 'src/vscode'}; adapters depend on core, never the reverse`);
      }
    }
  }
  for (const file of sourceFiles(mcpDir)) {
    for (const { spec, target, where } of importsOf(root, file)) {
      if (isVscode(spec)) violations.push(`${where}: imports '${spec}'; src/mcp runs in plain Node too and must not depend on the vscode API`);
      else if (target && isUnder(target, adapterDir)) violations.push(`${where}: imports '${spec}' from src/vscode; src/mcp must not depend on the VS Code adapter`);
      else if (target && isUnder(target, coreDir) && !coreIndex.has(target)) violations.push(`${where}: imports '${spec}', a core internal; adapters use only src/core/index.ts (export it there)`);
    }
  }
  const withoutExtension = (file) => file.replace(/\.(ts|js)$/, '');
  const settingsReader = new Set([path.join(adapterDir, 'config'), path.join(adapterDir, 'configDefaults')]);
  const settingsMayImport = (target) => settingsReader.has(withoutExtension(target)) || isUnder(target, path.join(adapterDir, 'util'));
  for (const file of sourceFiles(adapterDir)) {
    const readsSettings = settingsReader.has(withoutExtension(file));
    for (const { spec, target, where } of importsOf(root, file)) {
      if (readsSettings && target && isUnder(target, adapterDir) && !settingsMayImport(target)) {
        violations.push(`${where}: imports '${spec}'; the settings reader imports only util/ and configDefaults.ts of src/vscode (move what it needs there)`);
      } else if (target && isUnder(target, coreDir) && !coreIndex.has(target)) {
        violations.push(`${where}: imports '${spec}', a core internal; adapters use only src/core/index.ts (export it there)`);
      } else if (target && isUnder(target, mcpDir) && !mcpIndex.has(target)) {
        violations.push(`${where}: imports '${spec}', an src/mcp internal; use src/mcp/index.ts (export it there)`);
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
  console.log('Layer check: src/core imports neither vscode nor the adapters; src/mcp imports no vscode; adapters use only the index files; the settings reader imports no feature.');
}
