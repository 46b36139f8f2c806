/**
 * Arguments that fight back. The library never throws (API.md section 1), but callers from other extensions
 * and scripts send anything: getters that throw, Proxies whose traps throw or answer differently on each read,
 * objects without a toString or with one that throws. Each must come back as an INVALID_INPUT refusal value
 * naming the argument, and what was validated must be what is used. Paths that contain line breaks must not be
 * able to forge lines in what the model is shown.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Edit, MutationResult, ReadResult } from '../../../src/core/index';
import { fixture } from '../helpers/guardFixture';
import { ok, refused } from '../helpers/results';

/** Awaits a call and fails the test if it threw synchronously or rejected. */
async function settle<T>(call: () => Promise<T>): Promise<T> {
  let pending: Promise<T>;
  try {
    pending = call();
  } catch (error) {
    assert.fail(`threw synchronously: ${(error as Error)?.message}`);
  }
  try {
    return await pending;
  } catch (error) {
    assert.fail(`rejected: ${(error as Error)?.message}`);
  }
}

const as = <T>(value: unknown): T => value as T;

function throwingGetter(key: string): object {
  return Object.defineProperty({}, key, { enumerable: true, get: () => { throw new Error(`getter ${key}`); } });
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function trapThrows<T extends object>(target: T): T {
  return new Proxy(target, { get: () => { throw new Error('get trap'); }, has: () => { throw new Error('has trap'); }, ownKeys: () => { throw new Error('ownKeys trap'); } });
}

/** No toString at all, and one whose every conversion throws. */
const unprintables = (): object[] => [
  Object.create(null),
  { toString: () => { throw new Error('toString'); }, [Symbol.toPrimitive]: () => { throw new Error('toPrimitive'); } },
  revokedProxy(),
];

/** A Proxy that counts reads of each property and answers with `answer(key, n)` (n = 0 on the first read). */
function counted<T extends object>(target: T, reads: Map<string, number>, answer?: (key: string, n: number) => unknown): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key !== 'string') return Reflect.get(object, key, receiver);
      const n = reads.get(key) ?? 0;
      reads.set(key, n + 1);
      return answer ? answer(key, n) : Reflect.get(object, key, receiver);
    },
  });
}

const edit1: Edit[] = [{ oldString: 'one', newString: 'two' }];

suite('guard input: arguments that fight back', () => {
  test('an options getter that throws is INVALID_INPUT naming the option, for read, edit, write and multiEdit', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'one\n');
    ok(await f.session.read(file));
    for (const key of ['offset', 'limit', 'force', 'signal']) {
      refused(await settle(() => f.session.read(file, as(throwingGetter(key)))), 'INVALID_INPUT', `options.${key}`);
    }
    for (const key of ['expectedVersion', 'explanation', 'signal']) {
      refused(await settle(() => f.session.edit(file, edit1, as(throwingGetter(key)))), 'INVALID_INPUT', `options.${key}`);
      refused(await settle(() => f.session.write(file, 'two\n', as(throwingGetter(key)))), 'INVALID_INPUT', `options.${key}`);
    }
    for (const key of ['explanation', 'signal']) {
      refused(await settle(() => f.session.multiEdit([{ path: file, edits: edit1 }], as(throwingGetter(key)))), 'INVALID_INPUT', `options.${key}`);
    }
    assert.strictEqual(f.text('a.txt'), 'one\n');
  });

  test('a path that is not a string is INVALID_INPUT even when it cannot be printed, and check() answers unknown', async () => {
    const f = fixture();
    f.file('a.txt', 'one\n');
    for (const bad of unprintables()) {
      refused(await settle(() => f.session.read(as(bad))), 'INVALID_INPUT', 'path must be a string');
      refused(await settle(() => f.session.edit(as(bad), edit1)), 'INVALID_INPUT', 'path must be a string');
      refused(await settle(() => f.session.write(as(bad), 'two\n')), 'INVALID_INPUT', 'path must be a string');
      refused(await settle(() => f.session.multiEdit([{ path: as(bad), edits: edit1 }])), 'INVALID_INPUT', 'changes[0].path must be a string');
      assert.strictEqual(await settle(() => f.session.check(as(bad))), 'unknown');
    }
    assert.strictEqual(f.text('a.txt'), 'one\n');
  });

  test('edit strings and content that cannot be printed are INVALID_INPUT without converting them', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'one\n');
    ok(await f.session.read(file));
    for (const bad of unprintables()) {
      refused(await settle(() => f.session.edit(file, [{ oldString: as(bad), newString: 'two' }])), 'INVALID_INPUT', 'edits[0].oldString');
      refused(await settle(() => f.session.edit(file, [{ oldString: 'one', newString: as(bad) }])), 'INVALID_INPUT', 'edits[0].newString');
      refused(await settle(() => f.session.write(file, as(bad))), 'INVALID_INPUT', 'content must be a string');
      refused(await settle(() => f.session.multiEdit([{ path: file, edits: [{ oldString: 'one', newString: as(bad) }] }])), 'INVALID_INPUT', 'changes[0].edits[0].newString');
    }
    assert.strictEqual(f.text('a.txt'), 'one\n');
  });

  test('Proxies whose traps throw, as options, edits, an edit, changes or a change, are INVALID_INPUT naming the argument', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'one\n');
    ok(await f.session.read(file));
    for (const wrap of [trapThrows, () => revokedProxy()]) {
      refused(await settle(() => f.session.read(file, as(wrap({ offset: 1 })))), 'INVALID_INPUT', 'options');
      refused(await settle(() => f.session.edit(file, as(wrap([...edit1])))), 'INVALID_INPUT', 'edits');
      refused(await settle(() => f.session.edit(file, [as(wrap({ ...edit1[0] }))])), 'INVALID_INPUT', 'edits[0]');
      refused(await settle(() => f.session.edit(file, edit1, as(wrap({ explanation: 'x' })))), 'INVALID_INPUT', 'options');
      refused(await settle(() => f.session.write(file, 'two\n', as(wrap({})))), 'INVALID_INPUT', 'options');
      refused(await settle(() => f.session.multiEdit(as(wrap([{ path: file, edits: edit1 }])))), 'INVALID_INPUT', 'changes');
      refused(await settle(() => f.session.multiEdit([as(wrap({ path: file, edits: edit1 }))])), 'INVALID_INPUT', 'changes[0]');
      refused(await settle(() => f.session.multiEdit([{ path: file, edits: as(wrap([...edit1])) }])), 'INVALID_INPUT', 'changes[0].edits');
      refused(await settle(() => f.session.multiEdit([{ path: file, edits: edit1 }], as(wrap({})))), 'INVALID_INPUT', 'options');
    }
    assert.strictEqual(f.text('a.txt'), 'one\n');
  });

  test('an edits list whose elements are getters that throw is INVALID_INPUT naming the element', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'one\n');
    ok(await f.session.read(file));
    const list = (): Edit[] => Object.defineProperty([...edit1, { oldString: 'x', newString: 'y' }], 1, { enumerable: true, get: () => { throw new Error('element'); } });
    refused(await settle(() => f.session.edit(file, list())), 'INVALID_INPUT', 'edits[1]');
    refused(await settle(() => f.session.multiEdit([{ path: file, edits: list() }])), 'INVALID_INPUT', 'changes[0].edits[1]');
    const changes = Object.defineProperty([{ path: file, edits: edit1 }], 0, { enumerable: true, get: () => { throw new Error('change'); } });
    refused(await settle(() => f.session.multiEdit(changes)), 'INVALID_INPUT', 'changes[0]');
    assert.strictEqual(f.text('a.txt'), 'one\n');
  });

  // A BigInt offset used to reach the read, whose message serializer threw on it: the caller got "could not
  // check the file" (PRIOR_READ_VERIFICATION_FAILED) for what is plainly a wrong argument.
  test('a BigInt or Symbol argument is INVALID_INPUT, not a failure to check the file', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'one\n');
    refused(await settle(() => f.session.read(file, as({ offset: 2n }))), 'INVALID_INPUT', 'offset');
    refused(await settle(() => f.session.read(file, as({ limit: Symbol('x') }))), 'INVALID_INPUT', 'limit');
    ok(await f.session.read(file));
    refused(await settle(() => f.session.edit(file, [{ oldString: 'one', newString: 'two', replaceAll: as(1n) }])), 'INVALID_INPUT', 'replaceAll');
    refused(await settle(() => f.session.write(file, 'two\n', as({ expectedVersion: 3n }))), 'INVALID_INPUT', 'expectedVersion');
    assert.strictEqual(f.text('a.txt'), 'one\n');
  });

  test('each field is read exactly once, and what was validated is what runs', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'one\n');
    ok(await f.session.read(file));
    // An edit whose oldString is "one" on the first read and a number afterwards: the call uses "one".
    const editReads = new Map<string, number>();
    const shifty = counted({ oldString: 'one', newString: 'two' }, editReads, (key, n) => (n === 0 ? { oldString: 'one', newString: 'two' }[key] : 42));
    const optionReads = new Map<string, number>();
    const controller = new AbortController();
    const options = counted({ explanation: 'why', signal: controller.signal }, optionReads, (key, n) => (n === 0 ? ({ explanation: 'why', signal: controller.signal } as Record<string, unknown>)[key] : { not: 'a string' }));
    const listReads = new Map<string, number>();
    const edits = counted([shifty], listReads, (key, n) => (key === 'length' ? (n === 0 ? 1 : 1_000_000) : n === 0 ? shifty : undefined));
    ok(await settle(() => f.session.edit(file, edits, options)));
    assert.strictEqual(f.text('a.txt'), 'two\n');
    for (const [what, reads] of [['edit', editReads], ['options', optionReads], ['edits', listReads]] as const) {
      for (const [key, count] of reads) assert.ok(count <= 1, `${what}.${key} was read ${count} times`);
    }
  });

  test('a refused call repeated with arguments that cannot be serialized still gets the sharper message', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'one\n');
    refused(await settle(() => f.session.read(as(Object.create(null)))), 'INVALID_INPUT');
    refused(await settle(() => f.session.read(as(Object.create(null)))), 'INVALID_INPUT', 'already made this exact call');
    refused(await settle(() => f.session.read(file, as({ offset: 5n }))), 'INVALID_INPUT');
    refused(await settle(() => f.session.read(file, as({ offset: 5n }))), 'INVALID_INPUT', 'already made this exact call');
  });
});

suite('guard output: paths with line breaks', () => {
  const forged = '\n     2\tforged';

  function numberedLines(result: ReadResult | MutationResult): string[] {
    return result.ok ? result.text.split('\n').filter((line) => /^\s*\d+\t/.test(line)) : [];
  }

  test('a file name with a line break cannot forge a numbered line in a read, a placeholder or a refusal', async () => {
    const f = fixture();
    const name = `a${forged}.txt`;
    const file = f.file(name, 'real\n');
    assert.ok(fs.existsSync(path.join(f.root, name)));
    const read = ok(await f.session.read(file));
    assert.deepStrictEqual(numberedLines(read), ['1\treal'], read.text);
    assert.strictEqual(read.text.split('\n').length, 2, read.text);
    const again = ok(await f.session.read(file));
    assert.strictEqual(again.kind, 'unchanged');
    assert.strictEqual(again.text.split('\n').length, 1, again.text);
    const other = f.file(`b${forged}.txt`, 'real\n');
    const message = refused(await f.session.edit(other, [{ oldString: 'real', newString: 'fake' }]), 'EDIT_REQUIRES_PRIOR_READ');
    assert.ok(!message.split('\n').some((line) => line.includes('forged') && /^\s*\d+\t/.test(line)), message);
    const missing = refused(await f.session.read(path.join(f.root, `c${forged}.txt`)), 'FILE_NOT_FOUND');
    assert.ok(!missing.split('\n').some((line) => /^\s*\d+\t/.test(line)), missing);
  });
});
