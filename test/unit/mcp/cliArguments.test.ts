import * as assert from 'assert';
import { parseCliArguments } from '../../../src/mcp/cliArguments';

suite('the headless MCP server\'s command line', () => {
  test('roots (repeated, or with =) resolve against the working folder; deny globs and --no-dedup are kept', () => {
    assert.deepStrictEqual(parseCliArguments(['--root', 'a', '--root=/b', '--deny', '**/.env*', '--deny=secrets/**', '--no-dedup'], '/work'), { kind: 'run', options: { roots: ['/work/a', '/b'], deny: ['**/.env*', 'secrets/**'], dedup: false } });
    assert.deepStrictEqual(parseCliArguments(['--root', '.'], '/work'), { kind: 'run', options: { roots: ['/work'], deny: [], dedup: true } });
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
    ];
    for (const [argv, message] of cases) {
      const parsed = parseCliArguments(argv, '/');
      assert.ok(parsed.kind === 'error' && message.test(parsed.message), `${argv.join(' ')}: ${JSON.stringify(parsed)}`);
    }
  });
});
