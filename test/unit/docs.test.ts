/**
 * The documents a user reads: no leftovers of a merge, a README read in minutes whose commands are the ones CI
 * runs, links that lead somewhere, generated pages that match what generates them, and no citations of documents
 * outside the repository.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';

type Token = { type: string; tag: string; content: string; map: [number, number] | null; children: Token[] | null; attrGet(name: string): string | null };
const MarkdownIt = require('markdown-it') as new (options?: object) => { parse(source: string, env: object): Token[] };
const markdown = new MarkdownIt();

const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');
const docsFiles = () => fs.readdirSync(path.join(repoRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
/** Every Markdown document of the repository that people read. */
const documents = () => ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...docsFiles(), 'bench/README.md', 'test/agents/README.md'];

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a document's headings get (a repeated one gets -1, -2, … as on GitHub). */
function anchorsOf(source: string): Set<string> {
  const tokens = markdown.parse(source, {});
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const text = (tokens[i + 1].children ?? []).filter((child) => child.type === 'text' || child.type === 'code_inline').map((child) => child.content).join('');
    const base = anchorOf(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  return anchors;
}

/** Every link and image target of a document, with its line. */
function targetsOf(source: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  for (const token of markdown.parse(source, {})) {
    if (token.type !== 'inline') continue;
    for (const child of token.children ?? []) {
      const target = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
      if (target !== null) found.push({ target, line: (token.map?.[0] ?? 0) + 1 });
    }
  }
  return found;
}

/** Links into the repository on the web name its files as the packaged README does. */
const REPOSITORY_FILES = 'https://github.com/readgate/readgate/blob/HEAD/';

/** Why `target` (a link in `file`) leads nowhere, or undefined when it leads to a file and heading that exist. */
function brokenLink(file: string, target: string): string | undefined {
  let relative: string;
  if (target.startsWith(REPOSITORY_FILES)) relative = path.relative(path.dirname(path.join(repoRoot, file)), path.join(repoRoot, target.slice(REPOSITORY_FILES.length)));
  else if (/^[a-z][\w+.-]*:/i.test(target)) return undefined;
  else relative = target;
  const [pathPart, fragment] = relative.split('#') as [string, string | undefined];
  const resolved = pathPart === '' ? path.join(repoRoot, file) : path.resolve(path.dirname(path.join(repoRoot, file)), decodeURI(pathPart));
  if (!resolved.startsWith(repoRoot)) return 'outside the repository';
  if (!fs.existsSync(resolved)) return 'no such file';
  if (fragment === undefined || fragment === '') return undefined;
  if (!resolved.endsWith('.md')) return 'an anchor in a file that is not Markdown';
  return anchorsOf(fs.readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment)) ? undefined : `no heading #${fragment}`;
}

suite('documents', () => {
  test('none has merge conflict markers', () => {
    for (const name of documents()) {
      const lines = read(name).split('\n');
      const markers = lines.flatMap((line, i) => (/^(<{7}|={7}|>{7})( |$)/.test(line) ? [`${i + 1}: ${line}`] : []));
      assert.deepStrictEqual(markers, [], name);
    }
  });

  test('every relative link and image leads to a file of the repository, and every #anchor to a heading in it', () => {
    const broken: string[] = [];
    for (const name of documents()) {
      for (const { target, line } of targetsOf(read(name))) {
        const why = brokenLink(name, target);
        if (why) broken.push(`${name}:${line}: ${target} (${why})`);
      }
    }
    assert.deepStrictEqual(broken, []);
  });

  test('the link check itself finds a missing file, a missing heading and a heading that exists', () => {
    assert.strictEqual(brokenLink('README.md', 'docs/nothing-here.md'), 'no such file');
    assert.strictEqual(brokenLink('README.md', 'docs/agents.md#no-such-heading'), 'no heading #no-such-heading');
    assert.strictEqual(brokenLink('README.md', 'docs/agents.md#mcp-without-vs-code-distmcpjs'), undefined);
    assert.strictEqual(brokenLink('docs/agents.md', '../CONTRIBUTING.md#performance-npm-run-bench-npm-run-benchhost'), undefined);
    assert.strictEqual(brokenLink('docs/settings.md', `${REPOSITORY_FILES}docs/agents.md#what-each-client-is-shown-and-when-it-forgets`), undefined);
    assert.strictEqual(brokenLink('README.md', `${REPOSITORY_FILES}docs/gone.md`), 'no such file');
    assert.strictEqual(anchorOf('Chat participant `@readgate`'), 'chat-participant-readgate');
    assert.strictEqual(anchorOf('What a write guarantees (and the window it cannot close)'), 'what-a-write-guarantees-and-the-window-it-cannot-close');
  });

  test('none cites a document outside the repository', () => {
    for (const name of documents().filter((each) => each !== 'CHANGELOG.md')) {
      const cited = read(name).split('\n').flatMap((line, i) => (/\b(SPEC|API\.md|STYLE\.md|HARNESS\.md|PERF\.md)\b/.test(line) ? [`${i + 1}: ${line}`] : []));
      assert.deepStrictEqual(cited, [], name);
    }
  });

  test('the README is read in ten minutes: what ReadGate is, install, try it, connect an agent, links', () => {
    const text = read('README.md');
    const lines = text.split('\n').length;
    assert.ok(lines <= 150, `README.md has ${lines} lines; the rest belongs in docs/`);
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    for (const heading of ['Install', 'Try it without a language model', 'Connect an agent', 'Documentation']) assert.ok(headings.includes(heading), `no "## ${heading}" in ${headings.join(', ')}`);
    for (const doc of docsFiles()) assert.ok(text.includes(`](${doc})`), `the README does not link ${doc}`);
  });

  test('the README\'s two commands are npm start and npm test, and CI runs exactly its test command', () => {
    const blocks = [...read('README.md').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((match) => match[1].split('\n'));
    const command = (name: string) => blocks.find((line) => line.startsWith(`npm ${name} `))?.replace(/\s+#.*$/, '');
    assert.strictEqual(command('start'), 'npm start');
    assert.strictEqual(command('test'), 'npm test');
    const ci = read('.ci/run').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    assert.strictEqual(ci.at(-1), command('test'), '.ci/run must end with the README\'s test command');
  });

  test('docs/settings.md is what `npm run docs` makes of package.json (every setting and command)', async () => {
    const { settingsDoc } = (await import(path.join(repoRoot, 'scripts/settingsDoc.mjs'))) as { settingsDoc(manifest: unknown): string };
    const manifest = JSON.parse(read('package.json')) as { contributes: { configuration: { properties: Record<string, unknown> }; commands: { command: string; title: string }[] } };
    const generated = settingsDoc(manifest);
    assert.strictEqual(read('docs/settings.md'), generated, 'docs/settings.md differs from package.json: run `npm run docs`');
    for (const id of Object.keys(manifest.contributes.configuration.properties)) assert.ok(generated.includes(`### \`${id}\``), id);
    for (const { command, title } of manifest.contributes.commands) assert.ok(generated.includes(`| **${title}** | \`${command}\` |`), command);
  });

  test('the settings page fails to build for a command without a note, and links settings a description names', async () => {
    const { settingsDoc } = (await import(path.join(repoRoot, 'scripts/settingsDoc.mjs'))) as { settingsDoc(manifest: unknown): string };
    const manifest = JSON.parse(read('package.json')) as { contributes: { commands: { command: string; title: string }[] } };
    manifest.contributes.commands.push({ command: 'readgate.somethingNew', title: 'Something New' });
    assert.throws(() => settingsDoc(manifest), /no note for readgate\.somethingNew/);
    assert.match(read('docs/settings.md'), /\[`readgate\.approval\.protected`\]\(#readgateapprovalprotected\)/);
  });

  test('`npm run docs -- --check` agrees: nothing generated differs from what the script writes', function () {
    this.timeout(30_000);
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/docs.mjs'), '--check'], { cwd: repoRoot, stdio: 'pipe' });
  });
});
