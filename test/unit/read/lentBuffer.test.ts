/**
 * Whole-file reads into a lent buffer: the Node port reads into the buffer the guard lends it (or leaves a new one
 * there), and the guard uses those bytes only during the read that asked for them, so what it keeps (snapshots,
 * line indexes, versions) and answers later never depends on what the buffer holds afterwards.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { nodeSyscalls } from '../../../src/core/nodeFs/syscalls';
import type { FileSystem, ScratchSpace } from '../../../src/core/ports';
import { IN_MEMORY_MAX_BYTES } from '../../../src/core/text/loadText';
import { ReadScratch } from '../../../src/core/text/readScratch';
import { fixture, numbered } from '../helpers/guardFixture';
import { ok } from '../helpers/results';

/** The Node port, remembering every scratch space it was lent, so a test can scribble over them between calls. */
function recording(): { fileSystem: FileSystem; lent: (ScratchSpace | undefined)[]; scribble(): void } {
  const real = createNodeFileSystem();
  const lent: (ScratchSpace | undefined)[] = [];
  return {
    fileSystem: {
      ...real,
      readFile: async (path, scratch) => {
        lent.push(scratch);
        const bytes = await real.readFile(path, scratch);
        // Another read may take the turn in between: the bytes must not be needed then.
        await new Promise((resolve) => setImmediate(resolve));
        return bytes;
      },
    },
    lent,
    scribble: () => lent.forEach((space) => space?.buffer?.fill(0x21)),
  };
}

suite('reads into a lent buffer', () => {
  test('the Node port reads into the lent buffer when the file fits, and leaves a bigger one there when not', async () => {
    const f = fixture();
    const small = f.file('small.txt', 'a'.repeat(100));
    const smaller = f.file('smaller.txt', 'b'.repeat(50));
    const big = f.file('big.txt', 'c'.repeat(10_000));
    const port = createNodeFileSystem();
    const scratch: ScratchSpace = {};
    const first = await port.readFile(small, scratch);
    assert.strictEqual(Buffer.from(first).toString(), 'a'.repeat(100));
    assert.ok(scratch.buffer && scratch.buffer.length > 100, 'a buffer is left for the next read');
    const kept = scratch.buffer;
    const second = await port.readFile(smaller, scratch);
    assert.strictEqual(Buffer.from(second).toString(), 'b'.repeat(50));
    assert.strictEqual(second.buffer, kept.buffer, 'the file that fits is read into the lent buffer');
    assert.strictEqual(scratch.buffer.buffer, kept.buffer);
    const third = await port.readFile(big, scratch);
    assert.strictEqual(Buffer.from(third).toString(), 'c'.repeat(10_000));
    assert.notStrictEqual(third.buffer, kept.buffer);
    assert.strictEqual(scratch.buffer!.buffer, third.buffer, 'the bigger buffer is left for the next read');
    // Without a scratch space, every read has bytes of its own.
    assert.notStrictEqual((await port.readFile(smaller)).buffer, third.buffer);
  });

  test('a file that grows while it is read into a lent buffer is read whole', async () => {
    const f = fixture();
    const file = f.file('growing.txt', 'x'.repeat(1000));
    let grown = false;
    const port = createNodeFileSystem({
      syscalls: {
        ...nodeSyscalls,
        readSync: (fd, buffer, offset, length, position) => {
          if (!grown) fs.appendFileSync(file, 'y'.repeat(5000));
          grown = true;
          return nodeSyscalls.readSync(fd, buffer, offset, length, position);
        },
      },
    });
    const scratch: ScratchSpace = { buffer: Buffer.alloc(1001) };
    const bytes = await port.readFile(file, scratch);
    assert.strictEqual(Buffer.from(bytes).toString(), 'x'.repeat(1000) + 'y'.repeat(5000));
    assert.ok((scratch.buffer?.length ?? 0) > 6000, 'the grown buffer is left for the next read');
  });

  test('what the guard keeps and answers never depends on the lent bytes after their read', async () => {
    const port = recording();
    const f = fixture({ fileSystem: port.fileSystem });
    const a = f.file('a.ts', numbered(300));
    const b = f.file('b.ts', numbered(300, 'other'));
    const first = ok(await f.session.read('a.ts'));
    port.scribble();
    ok(await f.session.read('b.ts'));
    port.scribble();
    assert.ok(port.lent.every((space) => space !== undefined), 'reads one after the other are each lent the buffer');
    // The kept text of a.ts answers a forced read, the placeholder and the delta after someone else's change.
    const body = (text: string): string => text.slice(text.indexOf('\n'));
    assert.strictEqual(body(ok(await f.session.read('a.ts', { force: true })).text), body(first.text));
    port.scribble();
    assert.strictEqual(ok(await f.session.read('a.ts')).kind, 'unchanged');
    fs.writeFileSync(a, numbered(300).replace('line 150\n', 'line 150 changed\n'));
    port.scribble();
    const delta = ok(await f.session.read('a.ts'));
    assert.strictEqual(delta.kind, 'delta', delta.text);
    assert.match(delta.text, /\n\s*150\tline 150 changed\n/);
    assert.doesNotMatch(delta.text, /!!!/);
    port.scribble();
    ok(await f.session.edit('a.ts', [{ oldString: 'line 151\n', newString: 'line 151 edited\n' }]));
    assert.strictEqual(f.text('a.ts'), numbered(300).replace('line 150\n', 'line 150 changed\n').replace('line 151\n', 'line 151 edited\n'));
    assert.strictEqual(fs.readFileSync(b, 'utf8'), numbered(300, 'other'));
  });

  test('two reads at once: one is lent the buffer, the other reads into its own, and both answer their file', async () => {
    const port = recording();
    const f = fixture({ fileSystem: port.fileSystem });
    f.file('a.txt', 'A\n'.repeat(500));
    f.file('b.txt', 'B\n'.repeat(700));
    const other = f.guard.session('other');
    const [a, b] = await Promise.all([f.session.read('a.txt'), other.read('b.txt')]);
    assert.match(ok(a).text, /lines 1-500 of 500/);
    assert.doesNotMatch(ok(a).text, /\tB/);
    assert.match(ok(b).text, /lines 1-700 of 700/);
    assert.doesNotMatch(ok(b).text, /\tA/);
    assert.strictEqual(port.lent.filter((space) => space !== undefined).length, 1, 'only one read at a time is lent the buffer');
    assert.strictEqual(port.lent.length, 2);
  });

  test('a buffer bigger than the in-memory limit is not kept for the next read', async () => {
    const scratch = new ReadScratch();
    const lent: (ScratchSpace | undefined)[] = [];
    const port = {
      readFile: async (_path: string, space?: ScratchSpace) => {
        lent.push(space);
        if (space && lent.length === 1) space.buffer = new Uint8Array(IN_MEMORY_MAX_BYTES + 2);
        return new Uint8Array(1);
      },
    } as unknown as FileSystem;
    await scratch.read(port, '/x', async () => undefined);
    await scratch.read(port, '/x', async () => undefined);
    assert.strictEqual(lent[0], lent[1], 'the same space is lent again');
    assert.strictEqual(lent[1]?.buffer, undefined);
  });
});
