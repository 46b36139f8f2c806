import * as assert from 'assert';
import { parseCliArguments } from '../../../src/mcp/cliArguments';

suite('the headless MCP server\'s command line', () => {
  test('roots (repeated, or with =) resolve against the working folder; deny globs and --no-dedup are kept', () => {
    assert.deepStrictEqual(parseCliArguments(['--root', 'a', '--root=/b', '--deny', '**/.env*', '--deny=secrets/**', '--no-dedup'], '/work'), { kind: 'run', options: { roots: ['/work/a', '/b'], deny: ['**/.env*', 'secrets/**'], dedup: false, placeholders: false } });
    assert.deepStrictEqual(parseCliArguments(['--root', '.'], '/work'), { kind: 'run', options: { roots: ['/work'], deny: [], dedup: true, placeholders: false } });
  });

  test('--max-read-chars and --placeholders set the result budget and the placeholder rule', () => {
    assert.deepStrictEqual(parseCliArguments(['--root', '.', '--max-read-chars', '20000', '--placeholders'], '/work'), { kind: 'run', options: { roots: ['/work'], deny: [], dedup: true, placeholders: true, maxResultChars: 20000 } });
    assert.deepStrictEqual(parseCliArguments(['--root', '.', '--max-read-chars=12000'], '/work'), { kind: 'run', options: { roots: ['/work'], deny: [], dedup: true, placeholders: false, maxResultChars: 12000 } });
  });

  test('--history names the folder that keeps the record of changes, resolved against the working folder', () => {
    assert.deepStrictEqual(parseCliArguments(['--root', '.', '--history', '.readgate/history'], '/work'), { kind: 'run', options: { roots: ['/work'], deny: [], dedup: true, placeholders: false, history: '/work/.readgate/history' } });
    assert.deepStrictEqual(parseCliArguments(['--root', '.', '--history=/h'], '/work'), { kind: 'run', options: { roots: ['/work'], deny: [], dedup: true, placeholders: false, history: '/h' } });
    const missing = parseCliArguments(['--root', '.', '--history'], '/work');
    assert.ok(missing.kind === 'error' && /--history needs a value/.test(missing.message), JSON.stringify(missing));
  });

  test('--forget names the folder (a root, --cwd or the working folder) and optionally the client', () => {
    assert.deepStrictEqual(parseCliArguments(['--forget'], '/work'), { kind: 'forget', options: { folder: '/work' } });
    assert.deepStrictEqual(parseCliArguments(['--forget', '--client', 'claude-code', '--cwd', 'sub'], '/work'), { kind: 'forget', options: { folder: '/work/sub', client: 'claude-code' } });
    assert.deepStrictEqual(parseCliArguments(['--forget', '--root', '/p'], '/work'), { kind: 'forget', options: { folder: '/p' } });
  });

  test('help, version, and errors that say what is missing', () => {
    assert.deepStrictEqual(parseCliArguments(['--help'], '/'), { kind: 'help' });
    assert.deepStrictEqual(parseCliArguments(['-h'], '/'), { kind: 'help' });
    assert.deepStrictEqual(parseCliArguments(['--version'], '/'), { kind: 'version' });
    const cases: [string[], RegExp][] = [
      [[], /at least one folder .* --root/],
      [['--root'], /--root needs a value/],
      [['--root='], /--root needs a value/],
      [['--root', 'a', '--deny'], /--deny needs a value/],
      [['--root', 'a', '--frobnicate'], /Unknown argument "--frobnicate"/],
      [['a'], /Unknown argument "a"/],
      [['--root', 'a', '--max-read-chars', '100'], /from 2000 to 500000/],
      [['--root', 'a', '--max-read-chars', '600000'], /from 2000 to 500000, not "600000"/],
      [['--root', 'a', '--max-read-chars', 'lots'], /from 2000 to 500000, not "lots"/],
    ];
    for (const [argv, message] of cases) {
      const parsed = parseCliArguments(argv, '/');
      assert.ok(parsed.kind === 'error' && message.test(parsed.message), `${argv.join(' ')}: ${JSON.stringify(parsed)}`);
    }
  });
});
