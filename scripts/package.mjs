// `npm run package`: builds the minified extension and packs readgate-<version>.vsix with vsce, which
// prints the file list. Works offline: no dependencies are bundled as node_modules (esbuild inlines them).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');

/** Where the repository's files are on the web: package.json's `repository`, as `<url>/blob/HEAD/`. */
export function repositoryFilesUrl(manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))) {
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!/^(git\+)?https:\/\//.test(url ?? '')) throw new Error(`package.json's repository is not an https URL: ${url}`);
  return `${url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/HEAD/`;
}

/**
 * The README the Extensions page shows: README.md without its screenshots, its relative links made absolute.
 * The page (VS Code 1.139's extension editor) renders only http(s) images: its sanitizer drops relative and data:
 * sources, and the repository they would be fetched from is not published. A dropped image would show as a
 * broken box, so the packaged README leaves them out; the screenshots stay in the repository's README. Its
 * relative links (docs/, CONTRIBUTING.md, LICENSE) lead nowhere from the Extensions page, and the VSIX carries no
 * docs/, so they become https links to the same files in the repository (vsce's own rewriting stays off, so the
 * packaged README is exactly what this returns). Links within the README (`#…`) stay.
 */
export function readmeForVsix(markdown, filesUrl = repositoryFilesUrl()) {
  const withoutImages = markdown.replace(/^!\[[^\]]*\]\((?![a-z][\w+.-]*:)[^)\s]+\)\n\n?/gim, '');
  return withoutImages.replace(/\]\((?![a-z][\w+.-]*:|#)(?:\.\/)?([^)\s]+)\)/gi, (_, target) => `](${filesUrl}${target})`);
}

/**
 * Packs the VSIX (vsce runs `vscode:prepublish`, the production build) and returns its path. `quiet` keeps vsce's
 * file list and the build's output to itself unless packing fails (`npm start` ends with what to do next).
 */
export function packageVsix(outFile, { quiet = false } = {}) {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const out = outFile ?? path.join(root, `readgate-${version}.vsix`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const readme = path.join(root, 'out', 'vsix-readme', 'README.md');
  fs.mkdirSync(path.dirname(readme), { recursive: true });
  fs.writeFileSync(readme, readmeForVsix(fs.readFileSync(path.join(root, 'README.md'), 'utf8')));
  const args = [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--readme-path', path.relative(root, readme), '--out', out];
  try {
    execFileSync(process.execPath, args, { cwd: root, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'], encoding: 'utf8' });
  } catch (error) {
    if (quiet) process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw new Error(`packing the VSIX failed (${error.message.split('\n')[0]})`);
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  packageVsix(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
