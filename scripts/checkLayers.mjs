// Layer rules: nothing under src/core may import `vscode` (not even types) or anything under src/vscode or src/mcp,
// so dist/core.js stays a plain Node library; src/mcp (the MCP surface, which also runs as plain Node in
// dist/mcp.js and dist/mcp-bridge.js) imports no `vscode` and nothing of src/vscode; and src/vscode and src/mcp
// reach the core only through src/core/index.ts, so the adapters use the same public surface as every other
// caller of the library; src/vscode reaches src/mcp only through its index.
// Inside src/core every folder and top-level file has a rank (CORE_RANKS): a module imports its own folder or a
// lower-ranked one, and no files import each other in a cycle of any length.
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
 * The ranks inside src/core, lowest first: building blocks below the operations that use them. A folder (`text/`)
 * or a top-level file (`types.ts`) imports its own folder or one of a lower rank, so two of them never import each
 * other; equal ranks mean neither needs the other.
 */
export const CORE_RANKS = [
  { unit: 'ports.ts', rank: 0, why: 'the port contract: types, importing nothing of the core' },
  { unit: 'defaults.ts', rank: 0, why: "the settings' defaults: plain values" },
  { unit: 'lock.ts', rank: 0, why: 'per-key serialization, knowing nothing of files or sessions' },
  { unit: 'fileErrors.ts', rank: 1, why: "the port's errors and what a failed system call says, over the port contract" },
  { unit: 'version/', rank: 1, why: 'content versions and file identities: hashing only' },
  { unit: 'text/', rank: 2, why: 'bytes as text: decoding, line endings and index, loading, line ranges, counts, budgets' },
  { unit: 'path/', rank: 3, why: 'the path policy and how a path is shown, over text' },
  { unit: 'results/', rank: 3, why: 'oversized results saved to files, over text' },
  { unit: 'problems/', rank: 3, why: "a result's problems section, over line ranges" },
  { unit: 'edit/', rank: 4, why: 'matching and applying edits, diffs: over text and how a path is shown' },
  { unit: 'ledger/', rank: 5, why: 'what a session has seen and whether it still holds: staleness needs the line diff' },
  { unit: 'refusals/', rank: 6, why: 'every refusal in words, naming what edits, the ledger and paths found' },
  { unit: 'patch/', rank: 7, why: 'parsing and placing patches (pure), with their refusals' },
  { unit: 'history/', rank: 7, why: 'the change history and the pure revert plan, refusing what it cannot revert' },
  { unit: 'nodeFs/', rank: 8, why: "Node's file system and the history's storage on it (implements the history's port)" },
  { unit: 'nodeFileSystem.ts', rank: 9, why: "the file system port on Node, over nodeFs/" },
  { unit: 'types.ts', rank: 9, why: 'the public contract, which re-exports the types lower modules own' },
  { unit: 'context/', rank: 10, why: "what every call runs with: the guard's shared parts and a session's state" },
  { unit: 'read/', rank: 11, why: 'the read operation' },
  { unit: 'mutate/', rank: 12, why: 'a change: facts, decision, approval, the write, the record, and the locks and path checks of its files' },
  { unit: 'ownTools/', rank: 13, why: "another tool's call, judged through its client's hooks: a read observed, a change judged over the change's planning, then recorded" },
  { unit: 'session/', rank: 14, why: "a session's boundary: arguments, order, dispatch to a read, change, patch, revert or another tool's call" },
  { unit: 'tools/', rank: 14, why: "the five tools' names, input checks and dispatch onto a session" },
  { unit: 'guard.ts', rank: 15, why: 'the guard: its context and sessions' },
  { unit: 'index.ts', rank: 16, why: 'the public surface' },
];

/** The folder (`text/`) or top-level file (`types.ts`) of a path below src/core (with '/', extension optional). */
function coreUnit(relative) {
  const slash = relative.indexOf('/');
  if (slash >= 0) return relative.slice(0, slash + 1);
  return `${relative.replace(/\.(ts|js)$/, '') || 'index'}.ts`;
}

const rankOf = (unit) => CORE_RANKS.find((entry) => entry.unit === unit)?.rank;

/** Only the session's state records to or clears a ledger: reads and changes return what it learns (`learn`). */
const LEDGER_WRITE = /\bledger\.(record|clear)\(/;
const LEDGER_OWNER = 'context/sessionState.ts';

/** The core file an import names (`target` without its extension, as written), or undefined when there is none. */
function coreFileOf(target) {
  const bare = target.replace(/\.js$/, '');
  for (const candidate of [`${bare}.ts`, `${bare}.tsx`, target, path.join(bare, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Strongly connected groups of more than one file (or a file importing itself), by Tarjan's algorithm. */
function cyclicGroups(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const groups = [];
  const visit = (file) => {
    index.set(file, index.size);
    low.set(file, index.get(file));
    stack.push(file);
    for (const { to } of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file), index.get(to)));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || (edges.get(file) ?? []).some(({ to }) => to === file)) groups.push(group);
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);
  return groups;
}

/** One cycle through `group`, from its first file back to it: the imports, each `{ from, to, spec, where }`. */
function cycleThrough(group, edges) {
  const inGroup = new Set(group);
  const start = [...group].sort()[0];
  const cameBy = new Map();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const edge of edges.get(file) ?? []) {
      if (!inGroup.has(edge.to) || cameBy.has(edge.to)) continue;
      cameBy.set(edge.to, edge);
      if (edge.to === start) queue.length = 0;
      else queue.push(edge.to);
    }
  }
  const cycle = [];
  for (let edge = cameBy.get(start); edge && (cycle.length === 0 || edge.to !== start); edge = cameBy.get(edge.from)) cycle.unshift(edge);
  return cycle;
}

/** `file:line: message` for every import cycle among the files of src/core, reported at its first file. */
function importCycles(root, coreDir) {
  const edges = new Map();
  for (const file of sourceFiles(coreDir)) {
    const own = [];
    for (const { spec, target, where } of importsOf(root, file)) {
      const to = target && isUnder(target, coreDir) ? coreFileOf(target) : undefined;
      if (to) own.push({ from: file, to, spec, where });
    }
    edges.set(file, own);
  }
  return cyclicGroups(edges).map((group) => {
    const cycle = cycleThrough(group, edges);
    const names = [...cycle.map((edge) => edge.from), cycle[0].from].map((file) => path.relative(coreDir, file).split(path.sep).join('/'));
    return `${cycle[0].where}: imports '${cycle[0].spec}', and the imports lead back: ${names.join(' → ')}; move what they share into a lower module`;
  });
}

/** Ranks, the ledger's one writer, and no vscode or adapter import, for every file of src/core. */
function coreViolations(root, coreDir, outside) {
  const violations = [];
  const unitOf = (file) => coreUnit(path.relative(coreDir, file).split(path.sep).join('/'));
  const unranked = new Set();
  for (const file of sourceFiles(coreDir)) {
    const relative = path.relative(coreDir, file).split(path.sep).join('/');
    const own = unitOf(file);
    if (rankOf(own) === undefined && !unranked.has(own)) {
      unranked.add(own);
      violations.push(`${path.join('src', 'core', own)}: has no rank inside src/core; give it one in CORE_RANKS (scripts/checkLayers.mjs)`);
    }
    if (relative !== LEDGER_OWNER && !relative.startsWith('ledger/')) {
      fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (LEDGER_WRITE.test(line)) violations.push(`${path.relative(root, file)}:${i + 1}: writes a session ledger; return the entries it learns and let the session record them (src/core/${LEDGER_OWNER})`);
      });
    }
    for (const { spec, target, where } of importsOf(root, file)) {
      const theirs = target && isUnder(target, coreDir) ? unitOf(target) : undefined;
      if (theirs && theirs !== own && rankOf(own) !== undefined && rankOf(theirs) !== undefined && rankOf(theirs) >= rankOf(own)) {
        violations.push(`${where}: imports '${spec}' (${theirs}, rank ${rankOf(theirs)}) from ${own} (rank ${rankOf(own)}); a module imports its own folder or a lower-ranked one (CORE_RANKS)`);
      }
      if (spec === 'vscode' || spec.startsWith('vscode/')) violations.push(`${where}: imports '${spec}'; src/core must not depend on the vscode API`);
      else if (target && outside.some((dir) => isUnder(target, dir))) {
        violations.push(`${where}: imports '${spec}' from ${path.relative(root, outside.find((dir) => isUnder(target, dir))).split(path.sep).join('/')}; adapters depend on core, never the reverse`);
      }
    }
  }
  return violations;
}

/** Returns `file:line: message` strings, one per forbidden import under `<root>/src/{core,mcp,vscode}`. */
export function findLayerViolations(root) {
  const coreDir = path.join(root, 'src/core');
  const mcpDir = path.join(root, 'src/mcp');
  const hooksDir = path.join(root, 'src/hooks');
  const adapterDir = path.join(root, 'src/vscode');
  // A public surface, spelled with or without the file name or extension.
  const indexOf = (dir) => new Set([dir, path.join(dir, 'index'), path.join(dir, 'index.ts'), path.join(dir, 'index.js')]);
  const coreIndex = indexOf(coreDir);
  const mcpIndex = indexOf(mcpDir);
  const hooksIndex = indexOf(hooksDir);
  const isVscode = (spec) => spec === 'vscode' || spec.startsWith('vscode/');
  // No import cycles, in the core and in the adapters either (a view names a command by its id from the lower
  // commandIds.ts, never by importing the command, which imports the view's types).
  const cycles = [coreDir, hooksDir, adapterDir].flatMap((dir) => importCycles(root, dir));
  const violations = [...coreViolations(root, coreDir, [mcpDir, hooksDir, adapterDir]), ...cycles];
  // src/mcp and src/hooks (the agent hooks) run in plain Node too: dist/mcp.js, the bridge, dist/agent-hook.js.
  for (const [dir, name] of [[mcpDir, 'src/mcp'], [hooksDir, 'src/hooks']]) {
    for (const file of sourceFiles(dir)) {
      for (const { spec, target, where } of importsOf(root, file)) {
        if (isVscode(spec)) violations.push(`${where}: imports '${spec}'; ${name} runs in plain Node too and must not depend on the vscode API`);
        else if (target && isUnder(target, adapterDir)) violations.push(`${where}: imports '${spec}' from src/vscode; ${name} must not depend on the VS Code adapter`);
        else if (target && isUnder(target, coreDir) && !coreIndex.has(target)) violations.push(`${where}: imports '${spec}', a core internal; adapters use only src/core/index.ts (export it there)`);
      }
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
      } else if (target && isUnder(target, hooksDir) && !hooksIndex.has(target)) {
        violations.push(`${where}: imports '${spec}', an src/hooks internal; use src/hooks/index.ts (export it there)`);
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
  console.log('Layer check: src/core imports neither vscode nor the adapters, each of its modules only its own folder or a lower-ranked one, with no import cycle (nor in src/vscode and src/hooks); src/mcp and src/hooks import no vscode; adapters use only the index files; the settings reader imports no feature.');
}
