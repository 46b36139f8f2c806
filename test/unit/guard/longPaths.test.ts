/**
 * Paths longer than a file system takes. A component over 255 bytes failed `lstat` with ENAMETOOLONG, which
 * came back as PRIOR_READ_VERIFICATION_FAILED ("try again later": it never succeeds), was logged as an
 * unexpected failure, and echoed the whole path: a 1 MiB path made a 1 MiB refusal. Such a path is PATH_INVALID
 * naming the limit, decided before any system call, and no refusal shows more than a bounded form of a path.
 */
import * as assert from 'assert';
import * as path from 'path';
import { type Logger, type MutationResult, type ReadResult, parseToolCall } from '../../../src/core/index';
import { fixture } from '../helpers/guardFixture';

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const quiet = (): void => undefined;
  return { errors, trace: quiet, debug: quiet, info: quiet, warn: quiet, error: (message) => void errors.push(message) };
}

type Call = (p: string) => Promise<ReadResult | MutationResult>;

/** The four operations on `p`, each as its first call on that path would be. */
function everyOperation(session: ReturnType<typeof fixture>['session']): [string, Call][] {
  return [
    ['read', (p) => session.read(p)],
    ['edit (create)', (p) => session.edit(p, [{ oldString: '', newString: 'x\n' }])],
    ['edit', (p) => session.edit(p, [{ oldString: 'a', newString: 'b' }])],
    ['write', (p) => session.write(p, 'x\n')],
    ['multiEdit', (p) => session.multiEdit([{ path: p, edits: [{ oldString: '', newString: 'x\n' }] }])],
  ];
}

suite('paths longer than the file system takes', () => {
  test('a name over 255 bytes is PATH_INVALID saying the name is too long, the limit and what to do, for read, edit, write and multiEdit', async () => {
    const logger = recordingLogger();
    const f = fixture({ logger });
    const name = `${'n'.repeat(300)}.txt`;
    for (const p of [name, path.join(f.root, name), `missing-folder/${name}`, `${name}/inner.txt`]) {
      for (const [operation, call] of everyOperation(f.session)) {
        const result = await call(p);
        assert.ok(!result.ok && result.code === 'PATH_INVALID', `${operation} ${p.slice(0, 40)}: ${JSON.stringify(result).slice(0, 300)}`);
        assert.match(result.message, /too long/, operation);
        assert.match(result.message, /304 bytes/, operation);
        assert.match(result.message, /255 bytes/, operation);
        assert.match(result.message, /shorter name/, operation);
      }
    }
    assert.deepStrictEqual(logger.errors, [], 'a too-long name is no unexpected failure');
  });

  test('counts a name in bytes: 128 two-byte letters are too long, 127 are not', async () => {
    const f = fixture();
    const refused = await f.session.write('é'.repeat(128), 'x\n');
    assert.ok(!refused.ok && refused.code === 'PATH_INVALID', JSON.stringify(refused).slice(0, 300));
    assert.ok((await f.session.write('é'.repeat(127), 'x\n')).ok);
  });

  test('a path over 4,095 bytes of names each short enough is PATH_INVALID naming the path limit', async () => {
    const logger = recordingLogger();
    const f = fixture({ logger });
    const deep = Array.from({ length: 60 }, (_, i) => `folder-${i}-${'d'.repeat(60)}`).join('/') + '/a.txt';
    for (const [operation, call] of everyOperation(f.session)) {
      const result = await call(deep);
      assert.ok(!result.ok && result.code === 'PATH_INVALID', `${operation}: ${JSON.stringify(result).slice(0, 300)}`);
      assert.match(result.message, /4,095 bytes/, operation);
    }
    assert.deepStrictEqual(logger.errors, []);
  });

  test('a 1 MiB path is never echoed whole: every refusal shows its start and its length', async () => {
    const f = fixture({ deny: ['**/denied/**'] });
    const huge = 'h'.repeat(1024 * 1024);
    // Over every limit, and (the last two) within them but long: outside the roots, and denied.
    const long = `/${'e'.repeat(100)}`.repeat(30);
    const paths = [huge, `/elsewhere/${huge}`, `a/${'b/'.repeat(400_000)}c.txt`, `/elsewhere${long}`, `denied${long}`];
    for (const p of paths) {
      for (const [operation, call] of everyOperation(f.session)) {
        const result = await call(p);
        assert.ok(!result.ok, operation);
        assert.ok(result.message.length < 1000, `${operation} ${result.code}: ${result.message.length} characters`);
        assert.match(result.message, /…[^…\s]* \([\d,]+ characters\)/, `${operation}: ${result.message.slice(0, 300)}`);
      }
    }
  });
});

suite('tool input that is not a path', () => {
  // checkFields echoed a wrong value as JSON: a 1 MiB list in filePath came back whole.
  test('a huge value of the wrong type is named in a few characters', () => {
    const refused = parseToolCall('readgate_read', { filePath: ['p'.repeat(1024 * 1024)] });
    assert.ok(!refused.ok);
    assert.strictEqual(refused.message, 'input.filePath must be a string; got a list.');
    const number = parseToolCall('readgate_read', { filePath: 'a', offset: 'o'.repeat(1024 * 1024) });
    assert.ok(!number.ok && number.message.length < 200, number.ok ? '' : number.message.slice(0, 200));
  });
});
