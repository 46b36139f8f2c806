import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';
import { makeTempDir } from './helpers/tempDir';

const vsce = path.join(repoRoot, 'node_modules/@vscode/vsce/vsce');
const readme = () => fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const imagesOf = (markdown: string) => [...markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]);
/** Links that are not images. */
const linksOf = (markdown: string) => [...markdown.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]);
/** Where the packaged README's relative links lead: the repository of package.json, its files at HEAD. */
const FILES_URL = 'https://github.com/readgate/readgate/blob/HEAD/';
type PackageScript = { readmeForVsix(markdown: string, filesUrl?: string): string; repositoryFilesUrl(): string };
const packageScript = () => import(path.join(repoRoot, 'scripts/package.mjs')) as Promise<PackageScript>;

suite('packaging (what the VSIX carries, and the Extensions page it shows)', () => {
  test('the VSIX holds the extension, the headless library, both MCP scripts, the agent hook and its plugin, the webview and the walkthrough, and no sources or tests', function () {
    this.timeout(60_000);
    const files = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').map((line) => line.trim()).filter(Boolean);
    // Connect an External Agent installs dist/mcp-bridge.js from the installed extension; dist/mcp.js is the headless server.
    const wanted = ['package.json', 'dist/extension.js', 'dist/core.js', 'dist/mcp.js', 'dist/mcp-server.js', 'dist/mcp-hook.js', 'dist/mcp-bridge.js', 'dist/webview/approval.js', 'media/walkthrough/fresh.patch', 'media/walkthrough/stale.patch'];
    // The agent plugin VS Code runs while readgate.agentHooks.enabled is on, and the hook its commands start.
    wanted.push('dist/agent-hook.js', 'dist/hook-guard-start.js', 'media/copilotHooks/.plugin/plugin.json', 'media/copilotHooks/hooks/hooks.json');
    for (const file of wanted) assert.ok(files.includes(file), `${file} is missing from: ${files.join(', ')}`);
    // The packed README (out/vsix-readme, written by an earlier packing) is the one file of out/ the VSIX carries.
    const stray = files.filter((file) => file !== 'out/vsix-readme/README.md');
    assert.deepStrictEqual(stray.filter((file) => /^(src|test|out|scripts|bench|node_modules|demo)\//.test(file) || file.endsWith('.map')), []);
    // Contributors' documents stay in the repository: the packaged README links to them there.
    assert.deepStrictEqual(files.filter((file) => file === 'CONTRIBUTING.md' || file.startsWith('docs/')), []);
  });

  test('the README speaks to users: its images are relative files that exist, and it holds no contributor material', () => {
    const text = readme();
    const images = imagesOf(text);
    assert.ok(images.length >= 1);
    for (const image of images) {
      assert.ok(!/^[a-z]+:/i.test(image), `${image} is a URL: the Extensions page must render offline`);
      assert.ok(fs.existsSync(path.join(repoRoot, image)), `${image} does not exist`);
    }
    for (const contributorOnly of ['npm run bench', 'test/harness', 'READGATE_TEST_GREP', 'npm run typecheck']) assert.ok(!text.includes(contributorOnly), `README mentions ${contributorOnly}; it belongs in CONTRIBUTING.md`);
    assert.match(text, /npm start/);
    assert.match(text, /npm test/);
  });

  test('the packed VSIX\'s README is README.md without its screenshots (the Extensions page renders only http(s) images), its relative links made https', function () {
    this.timeout(180_000);
    const out = path.join(makeTempDir(), 'readgate.vsix');
    try {
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts/package.mjs'), out], { cwd: repoRoot, stdio: 'ignore' });
    } finally {
      // Packing rebuilds dist/ minified (vscode:prepublish); later tests get the development build back.
      execFileSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, stdio: 'ignore' });
    }
    const packed = execFileSync('python3', ['-c', 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("extension/readme.md").decode())', out], { encoding: 'utf8' });
    assert.deepStrictEqual(imagesOf(packed), []);
    assert.ok(imagesOf(readme()).length >= 1);
    const withoutImages = readme().split('\n').filter((line) => !/^!\[/.test(line)).join('\n').replace(/\n{3,}/g, '\n\n');
    assert.strictEqual(packed.replace(/\n{3,}/g, '\n\n'), withoutImages.replace(/\]\((?![a-z][\w+.-]*:|#)/g, `](${FILES_URL}`), 'the packaged README differs from README.md beyond its screenshots and its links');
  });

  test('the packaged README\'s links lead to the repository\'s files on the web (https), which exist here, or within itself', async () => {
    const { readmeForVsix, repositoryFilesUrl } = await packageScript();
    assert.strictEqual(repositoryFilesUrl(), FILES_URL, 'package.json\'s repository');
    const packed = readmeForVsix(readme());
    assert.deepStrictEqual(imagesOf(packed), []);
    const links = linksOf(packed);
    assert.ok(links.some((link) => link.startsWith(`${FILES_URL}docs/`)), links.join('\n'));
    for (const link of links) {
      if (link.startsWith('#')) continue;
      assert.match(link, /^https:\/\//, `${link}: the Extensions page cannot follow a relative link`);
      if (!link.startsWith(FILES_URL)) continue;
      const file = link.slice(FILES_URL.length).split('#')[0];
      assert.ok(fs.existsSync(path.join(repoRoot, file)), `${link}: ${file} is not in the repository`);
    }
    assert.strictEqual(readmeForVsix('[a](docs/a.md#x) [b](./LICENSE) [c](#here) [d](https://example.org/)\n\n![shot](docs/images/x.png)\n\nend\n', 'https://host/r/blob/HEAD/'), '[a](https://host/r/blob/HEAD/docs/a.md#x) [b](https://host/r/blob/HEAD/LICENSE) [c](#here) [d](https://example.org/)\n\nend\n');
  });
});
