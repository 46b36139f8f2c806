import * as assert from 'assert';
import { isUtf8 } from 'buffer';
import * as fs from 'fs';
import * as path from 'path';
import { indexLines } from '../../../src/core/text/lineEndings';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { ChunkReader } from '../../../src/core/ports';
import { scanRange, type ScanResult } from '../../../src/core/text/scanRange';
import { loadHasher, type Hasher } from '../../../src/core/version/contentVersion';
import { makeTempDir } from '../helpers/tempDir';

type Options = { startLine: number; maxLines: number; maxBytes: number; chunkSize?: number; signal?: AbortSignal };

let hasher: Hasher;

async function scanFile(file: string, options: Options, wrap: (reader: ChunkReader) => ChunkReader = (r) => r): Promise<ScanResult> {
  const reader = await createNodeFileSystem().openChunkReader(file);
  try {
    return await scanRange(wrap(reader), { ...options, hasher });
  } finally {
    await reader.close();
  }
}

function writeTemp(content: string | Uint8Array, name = 'file.txt'): string {
  const file = path.join(makeTempDir(), name);
  fs.writeFileSync(file, content);
  return file;
}

const asText = (lines: Uint8Array[]): string[] => lines.map((line) => Buffer.from(line).toString('latin1'));

/** Lines, total and truncation as the in-memory rules of lineEndings.ts give them. */
function expected(content: string, options: Options): { lines: string[]; totalLines: number; truncatedByBytes: boolean } {
  const index = indexLines(content);
  const lines: string[] = [];
  let bytes = 0;
  let truncatedByBytes = false;
  const last = Math.min(index.count, options.startLine + options.maxLines - 1);
  for (let line = options.startLine; line <= last; line++) {
    const text = content.slice(index.start(line), index.end(line));
    if (bytes + text.length > options.maxBytes) {
      truncatedByBytes = true;
      break;
    }
    lines.push(text);
    bytes += text.length;
  }
  return { lines, totalLines: index.count, truncatedByBytes };
}

suite('scanRange', () => {
  suiteSetup(async () => {
    hasher = await loadHasher();
  });

  test('returns the requested lines with version, size, head and total', async () => {
    const content = 'one\ntwo\r\nthree\nfour\n';
    const result = await scanFile(writeTemp(content), { startLine: 2, maxLines: 2, maxBytes: 1000 });
    assert.deepStrictEqual(asText(result.lines), ['two', 'three']);
    assert.strictEqual(result.firstLine, 2);
    assert.strictEqual(result.totalLines, 4);
    assert.strictEqual(result.size, content.length);
    assert.strictEqual(result.version, hasher.hash(Buffer.from(content)));
    assert.strictEqual(Buffer.from(result.head).toString('latin1'), content);
    assert.strictEqual(result.endsWithNewline, true);
    assert.strictEqual(result.truncatedByBytes, false);
  });

  test('counts lines like lineEndings: a final newline starts no line, the empty file has none', async () => {
    const cases: [string, number, boolean][] = [
      ['', 0, false],
      ['a', 1, false],
      ['a\n', 1, true],
      ['a\nb', 2, false],
      ['\n\n', 2, true],
    ];
    for (const [content, totalLines, endsWithNewline] of cases) {
      const result = await scanFile(writeTemp(content), { startLine: 1, maxLines: 10, maxBytes: 100 });
      assert.strictEqual(result.totalLines, totalLines, JSON.stringify(content));
      assert.strictEqual(result.endsWithNewline, endsWithNewline, JSON.stringify(content));
      assert.deepStrictEqual(asText(result.lines), expected(content, { startLine: 1, maxLines: 10, maxBytes: 100 }).lines);
    }
  });

  test('ends a line at a lone CR as at LF and CRLF, a final CR included', async () => {
    for (const chunkSize of [1, 2, 3, 5, 64]) {
      const result = await scanFile(writeTemp('a\r\nb\rc\r\nd\r'), { startLine: 1, maxLines: 10, maxBytes: 100, chunkSize });
      assert.deepStrictEqual(asText(result.lines), ['a', 'b', 'c', 'd'], `chunk ${chunkSize}`);
      assert.strictEqual(result.totalLines, 4, `chunk ${chunkSize}`);
      assert.strictEqual(result.endsWithNewline, true, `chunk ${chunkSize}`);
    }
  });

  // A chunk may end on the '\r' of a "\r\n": the '\n' opening the next chunk is the same break, not an empty line.
  test('reads a CR at the end of a chunk followed by LF in the next as one break, and by anything else as a lone CR', async () => {
    const cases: [string, string[]][] = [
      ['ab\r\ncd\r\nef', ['ab', 'cd', 'ef']],
      ['ab\rcd\ref', ['ab', 'cd', 'ef']],
      ['ab\r\rcd\r\r\n', ['ab', '', 'cd', '']],
    ];
    for (const [content, lines] of cases) {
      const result = await scanFile(writeTemp(content), { startLine: 1, maxLines: 10, maxBytes: 100, chunkSize: 3 });
      assert.deepStrictEqual(asText(result.lines), lines, JSON.stringify(content));
      assert.strictEqual(result.totalLines, indexLines(content).count, JSON.stringify(content));
      const from2 = await scanFile(writeTemp(content), { startLine: 2, maxLines: 1, maxBytes: 100, chunkSize: 3 });
      assert.deepStrictEqual(asText(from2.lines), lines.slice(1, 2), `${JSON.stringify(content)} from line 2`);
    }
  });

  test('does not count a lone CR against the byte cap', async () => {
    const result = await scanFile(writeTemp('aaaa\rbbbb\r'), { startLine: 1, maxLines: 10, maxBytes: 8, chunkSize: 3 });
    assert.deepStrictEqual(asText(result.lines), ['aaaa', 'bbbb']);
    assert.strictEqual(result.truncatedByBytes, false);
  });

  test('returns no lines past the end of the file, with the real total', async () => {
    const result = await scanFile(writeTemp('a\nb\n'), { startLine: 5, maxLines: 3, maxBytes: 100 });
    assert.deepStrictEqual(result.lines, []);
    assert.strictEqual(result.totalLines, 2);
    assert.strictEqual(result.firstLine, 5);
    assert.strictEqual(result.truncatedByBytes, false);
  });

  test('keeps lines that span chunk boundaries, with CRLF split across chunks', async () => {
    const content = 'short\r\na line longer than the seven byte chunk\r\n\r\nx\ntail without newline';
    for (const chunkSize of [1, 2, 3, 7, 64]) {
      const result = await scanFile(writeTemp(content), { startLine: 1, maxLines: 100, maxBytes: 10_000, chunkSize });
      assert.deepStrictEqual(asText(result.lines), ['short', 'a line longer than the seven byte chunk', '', 'x', 'tail without newline'], `chunk ${chunkSize}`);
      assert.strictEqual(result.version, hasher.hash(Buffer.from(content)), `chunk ${chunkSize}`);
    }
  });

  test('stops keeping at a line boundary when the byte cap is reached, and says so', async () => {
    const content = 'aaaa\nbbbb\ncccc\nd\n';
    const result = await scanFile(writeTemp(content), { startLine: 1, maxLines: 10, maxBytes: 9, chunkSize: 7 });
    assert.deepStrictEqual(asText(result.lines), ['aaaa', 'bbbb']);
    assert.strictEqual(result.truncatedByBytes, true);
    assert.strictEqual(result.totalLines, 4);
  });

  test('does not count the CR of a CRLF against the byte cap', async () => {
    const result = await scanFile(writeTemp('aaaa\r\nbbbb\r\n'), { startLine: 1, maxLines: 10, maxBytes: 8, chunkSize: 3 });
    assert.deepStrictEqual(asText(result.lines), ['aaaa', 'bbbb']);
    assert.strictEqual(result.truncatedByBytes, false);
  });

  test('drops a first line larger than the cap rather than returning half of it', async () => {
    const result = await scanFile(writeTemp(`${'x'.repeat(5000)}\nsmall\n`), { startLine: 1, maxLines: 10, maxBytes: 100, chunkSize: 64 });
    assert.deepStrictEqual(result.lines, []);
    assert.strictEqual(result.truncatedByBytes, true);
    assert.strictEqual(result.totalLines, 2);
  });

  test('does not report a byte truncation for lines past the requested range', async () => {
    const result = await scanFile(writeTemp(`a\nb\n${'x'.repeat(500)}\n`), { startLine: 1, maxLines: 2, maxBytes: 10 });
    assert.deepStrictEqual(asText(result.lines), ['a', 'b']);
    assert.strictEqual(result.truncatedByBytes, false);
  });

  test('keeps only the first 8 KiB as head, across chunks', async () => {
    const content = Buffer.alloc(20_000, 0x61);
    content[8191] = 0x62;
    const result = await scanFile(writeTemp(content), { startLine: 1, maxLines: 0, maxBytes: 0, chunkSize: 1000 });
    assert.strictEqual(result.head.length, 8192);
    assert.strictEqual(result.head[8191], 0x62);
    assert.strictEqual(result.size, 20_000);
    assert.deepStrictEqual(result.lines, []);
  });

  test('agrees with the in-memory line rules for random files, ranges, caps and chunk sizes', async () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const pieces = ['\n', '\r\n', '\r', '\r', 'a', 'bc', 'defgh', '\u00e9', 'x'.repeat(30)];
    for (let round = 0; round < 200; round++) {
      let content = '';
      const length = random(40);
      for (let i = 0; i < length; i++) content += pieces[random(pieces.length)];
      const options: Options = { startLine: 1 + random(8), maxLines: random(10), maxBytes: random(80), chunkSize: 1 + random(12) };
      const bytes = Buffer.from(content, 'latin1');
      const result = await scanFile(writeTemp(bytes), options);
      const want = expected(content, options);
      const label = `${JSON.stringify(content)} ${JSON.stringify(options)}`;
      assert.deepStrictEqual(asText(result.lines), want.lines, label);
      assert.strictEqual(result.totalLines, want.totalLines, label);
      assert.strictEqual(result.truncatedByBytes, want.truncatedByBytes, label);
      assert.strictEqual(result.version, hasher.hash(bytes), label);
      assert.strictEqual(result.endsWithNewline, /[\r\n]$/.test(content), label);
    }
  });

  test('says whether every byte was UTF-8, however chunks cut its multi-byte sequences (seeded; prints its seed)', async () => {
    const seed = Number(process.env.READGATE_SEED ?? Math.floor(Math.random() * 2 ** 31));
    let state = seed >>> 0;
    const random = (n: number): number => {
      state = (state * 1103515245 + 12345) >>> 0;
      return (state >>> 8) % n;
    };
    // Whole sequences of every length, and the bytes that break them: a lone continuation, a cut lead, an overlong form.
    const good = ['a', '\n', 'é', '€', '𝄞', 'ß\r\n'].map((text) => Buffer.from(text, 'utf8'));
    const bad = [Buffer.from([0x80]), Buffer.from([0xe2, 0x82]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80])];
    for (let round = 0; round < 300; round++) {
      const parts: Buffer[] = [];
      for (let i = random(30); i > 0; i--) parts.push(good[random(good.length)]);
      if (random(3) === 0) parts.splice(random(parts.length + 1), 0, bad[random(bad.length)]);
      const bytes = Buffer.concat(parts);
      const chunkSize = 1 + random(9);
      const result = await scanFile(writeTemp(bytes), { startLine: 1, maxLines: 0, maxBytes: 0, chunkSize });
      assert.strictEqual(result.utf8, isUtf8(bytes), `seed ${seed} round ${round}: ${bytes.toString('hex')} in chunks of ${chunkSize}`);
    }
  });

  test('rejects with an AbortError when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(scanFile(writeTemp('a\n'), { startLine: 1, maxLines: 1, maxBytes: 10, signal: controller.signal }), { name: 'AbortError' });
  });

  test('stops between chunks when the signal is aborted mid-scan', async () => {
    const controller = new AbortController();
    let reads = 0;
    const abortAfterFirstRead = (reader: ChunkReader): ChunkReader => ({
      async read(buffer, position) {
        reads++;
        const count = await reader.read(buffer, position);
        controller.abort();
        return count;
      },
      close: () => reader.close(),
    });
    const file = writeTemp('line\n'.repeat(100));
    await assert.rejects(scanFile(file, { startLine: 1, maxLines: 10, maxBytes: 1000, chunkSize: 16, signal: controller.signal }, abortAfterFirstRead), { name: 'AbortError' });
    assert.strictEqual(reads, 1);
  });

  test('accepts readers that return fewer bytes than asked for', async () => {
    const shortReads = (reader: ChunkReader): ChunkReader => ({
      read: (buffer, position) => reader.read(buffer.subarray(0, 3), position),
      close: () => reader.close(),
    });
    const content = 'alpha\r\nbeta\ngamma';
    const result = await scanFile(writeTemp(content), { startLine: 2, maxLines: 5, maxBytes: 100 }, shortReads);
    assert.deepStrictEqual(asText(result.lines), ['beta', 'gamma']);
    assert.strictEqual(result.version, hasher.hash(Buffer.from(content)));
  });

  suite('200 MB file', () => {
    const LINE_BYTES = 80;
    const TOTAL_LINES = 2_500_000;
    const FILLER = ' lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor';
    const lineText = (n: number): string => `${String(n).padStart(9, '0')}${FILLER}`.slice(0, LINE_BYTES - 1);

    test('reads ten lines at the head, middle and tail with bounded memory', async function () {
      this.timeout(120_000);
      const file = path.join(makeTempDir(), 'big.log');
      const stream = hasher.create();
      const fd = fs.openSync(file, 'w');
      try {
        // One reused 4 MB buffer whose line numbers are patched in place: writing the file must not inflate
        // the heap the scans are measured against.
        const perChunk = 50_000;
        const chunk = Buffer.from(`${lineText(0)}\n`.repeat(perChunk), 'latin1');
        for (let first = 1; first <= TOTAL_LINES; first += perChunk) {
          const count = Math.min(perChunk, TOTAL_LINES - first + 1);
          for (let i = 0; i < count; i++) chunk.write(String(first + i).padStart(9, '0'), i * LINE_BYTES, 'latin1');
          const bytes = chunk.subarray(0, count * LINE_BYTES);
          stream.update(bytes);
          fs.writeSync(fd, bytes);
        }
      } finally {
        fs.closeSync(fd);
      }
      const version = stream.digest();
      assert.strictEqual(fs.statSync(file).size, 200_000_000);

      const measurements: string[] = [];
      for (const [where, startLine] of [['head', 1], ['middle', 1_250_000], ['tail', TOTAL_LINES - 9]] as const) {
        let peak = process.memoryUsage.rss();
        const before = peak;
        const sampling = (reader: ChunkReader): ChunkReader => ({
          async read(buffer, position) {
            peak = Math.max(peak, process.memoryUsage.rss());
            return reader.read(buffer, position);
          },
          close: () => reader.close(),
        });
        const started = process.hrtime.bigint();
        const result = await scanFile(file, { startLine, maxLines: 10, maxBytes: 64 * 1024 }, sampling);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        peak = Math.max(peak, process.memoryUsage.rss());
        const grewMb = (peak - before) / 2 ** 20;
        measurements.push(`${where}: ${ms.toFixed(0)} ms, RSS ${(before / 2 ** 20).toFixed(0)} MB +${grewMb.toFixed(1)} MB at peak`);

        assert.strictEqual(result.firstLine, startLine);
        assert.deepStrictEqual(asText(result.lines), Array.from({ length: 10 }, (_, i) => lineText(startLine + i)), where);
        assert.strictEqual(result.totalLines, TOTAL_LINES);
        assert.strictEqual(result.size, 200_000_000);
        assert.strictEqual(result.version, version);
        assert.strictEqual(result.truncatedByBytes, false);
        assert.ok(grewMb < 64, `${where}: RSS grew by ${grewMb.toFixed(1)} MB during the scan`);
      }
      fs.rmSync(file);
      if (process.env.READGATE_PERF_LOG) console.log(`      ${measurements.join('; ')}`);
    });
  });
});
