// Part of `npm test`: the packed VSIX as a user gets it. Packs readgate.vsix, installs it into the headless
// VS Code's extensions folder (no development copy of ReadGate is loaded), and runs the suites named
// `packaged.*.test.js` (test/integration) against it: the Extensions page renders the packaged README with its
// images, offline. Exits non-zero when a test fails or none ran.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHeadlessTests } from './driver.mjs';
import { ensureHeadlessVSCode } from './vscodeInstall.mjs';
import { packageVsix } from '../../scripts/package.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(repoRoot, 'test-results/packaged');
const vsix = path.join(repoRoot, 'test-results/readgate-packaged.vsix');

try {
  packageVsix(vsix);
} finally {
  // Packing builds dist/ minified; the development build comes back for whatever runs next.
  execFileSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, stdio: 'inherit' });
}
let code = await runHeadlessTests({
  vscode: ensureHeadlessVSCode(),
  // The runner needs one development extension; the test-only scripted model is inert here.
  extensionPaths: [path.join(repoRoot, 'out/test/fixtures/scriptedModel')],
  installVsix: [vsix],
  testsPath: path.join(repoRoot, 'out/test/integration/index.js'),
  outDir,
  timeoutSeconds: 300,
  env: { READGATE_TEST_SUITE: 'packaged', READGATE_TEST_HOOKS: '0', READGATE_TEST_LABEL: 'packaged' },
});
let summary = 'packaged: the suite did not report a result';
try {
  const result = JSON.parse(fs.readFileSync(path.join(outDir, 'mocha-result.json'), 'utf8'));
  summary = `packaged: ${result.passes} passed, ${result.failures} failed, ${result.pending} skipped`;
  if ((result.failures > 0 || result.tests === 0) && code === 0) code = 1;
} catch {
  if (code === 0) code = 1;
}
console.log(summary);
process.exit(code);
