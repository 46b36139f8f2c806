// `npm run package`: builds the minified extension and packs readgate-<version>.vsix with vsce, which
// prints the file list. Works offline: no dependencies are bundled as node_modules (esbuild inlines them).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');

/** Packs the VSIX (vsce runs `vscode:prepublish`, the production build) and returns its path. */
export function packageVsix(outFile) {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const out = outFile ?? path.join(root, `readgate-${version}.vsix`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  packageVsix();
}
