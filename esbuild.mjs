// The one build script.
//   node esbuild.mjs               development build of dist/ (source maps), including dist/webview/approval.{js,css}
//   node esbuild.mjs --production  minified dist/ for packaging, no source maps
//   node esbuild.mjs --watch       rebuild dist/ on change
//   node esbuild.mjs --tests       transpile src/ and test/ to out/ for mocha (unit tests, the agent CLI tests and the in-host suite),
//                                  and bundle the test-only fixture extensions of test/fixtures/ into out/test/fixtures/
// esbuild does not type-check: `npm run typecheck` (tsc --noEmit) does.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const root = path.dirname(new URL(import.meta.url).pathname);

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20', // the machine's Node runs dist/core.js; VS Code's extension host runs Node 24
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
};

const builds = [
  // The extension: the host provides `vscode`.
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The headless library. `vscode` is deliberately not external: an import of it from core fails this build.
  { ...common, entryPoints: ['src/core/index.ts'], outfile: 'dist/core.js', metafile: true },
  // MCP over stdio on the headless guard (`node dist/mcp.js --root <dir>`), and the stdio bridge external agents
  // start to reach a VS Code window's MCP server. Plain Node scripts: the SDK is bundled in.
  { ...common, entryPoints: ['src/mcp/serverEntry.ts'], outfile: 'dist/mcp.js', external: ['./mcp-hook.js', './mcp-server.js', './agent-hook.js'] },
  { ...common, entryPoints: ['src/mcp/cli.ts'], outfile: 'dist/mcp-server.js' },
  { ...common, entryPoints: ['src/mcp/hookMain.ts'], outfile: 'dist/mcp-hook.js' },
  { ...common, entryPoints: ['src/mcp/bridgeEntry.ts'], outfile: 'dist/mcp-bridge.js' },
  // The agent hook VS Code's agents run around each tool call (media/copilotHooks names it): small on purpose.
  { ...common, entryPoints: ['src/hooks/agentHookEntry.ts'], outfile: 'dist/agent-hook.js', external: ['./hook-guard-start.js'] },
  // What that hook loads only when no window serves its folder and it was set up with roots: the headless hook guard's start.
  { ...common, entryPoints: ['src/mcp/hookGuardStart.ts'], outfile: 'dist/hook-guard-start.js' },
  // The approval panel's page (media/approval, its own tsconfig): a browser script and its stylesheet.
  {
    entryPoints: [
      { in: 'media/approval/main.ts', out: 'approval' },
      { in: 'media/approval/approval.css', out: 'approval' },
    ],
    outdir: 'dist/webview',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    logLevel: 'warning',
  },
];

function emitCoreDeclarations() {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  fs.rmSync(path.join(root, 'dist/core-types'), { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.core.json'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(path.join(root, 'dist/core.d.ts'), "export * from './core-types/index';\n");
}

function assertCoreIsHeadless(metafile) {
  const inputs = Object.keys(metafile.inputs);
  const leaked = inputs.filter((file) => !file.startsWith('src/core/') && !file.startsWith('node_modules/'));
  if (leaked.length) throw new Error(`dist/core.js must contain only src/core (and libraries), but bundles: ${leaked.join(', ')}`);
}

async function buildDist() {
  fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  assertCoreIsHeadless(results[1].metafile);
  emitCoreDeclarations();
}

async function buildTests() {
  fs.rmSync(path.join(root, 'out'), { recursive: true, force: true });
  await esbuild.build({
    entryPoints: ['src/**/*.ts', 'media/approval/chunkScheduler.ts', 'test/unit/**/*.ts', 'test/integration/*.ts', 'test/benchHost/*.ts', 'test/agents/**/*.ts'],
    outdir: 'out',
    outbase: '.',
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  // Unbundled, src/mcp's import of the manifest (the tools' schemas) resolves to out/package.json.
  fs.copyFileSync(path.join(root, 'package.json'), path.join(root, 'out/package.json'));
  // Test-only fixture extensions (loaded beside ReadGate by the integration harness): each folder's manifest
  // next to its bundled code.
  for (const fixture of fs.readdirSync(path.join(root, 'test/fixtures'))) {
    const from = path.join(root, 'test/fixtures', fixture);
    const to = path.join(root, 'out/test/fixtures', fixture);
    await esbuild.build({ ...common, minify: false, sourcemap: 'inline', entryPoints: [path.join(from, 'extension.ts')], outfile: path.join(to, 'extension.js'), external: ['vscode'] });
    fs.copyFileSync(path.join(from, 'package.json'), path.join(to, 'package.json'));
  }
}

if (args.has('--tests')) {
  await buildTests();
} else if (args.has('--watch')) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('[watch] watching src/ for changes');
} else {
  await buildDist();
}
