/**
 * Content as lines for the three-way merge, byte-exact: a file is held as a binary string (one character per
 * byte) and cut after each line break, keeping the break in its line, so joining any sequence of such lines
 * gives back exactly the bytes they came from: CRLF, LF, lone CR and mixed endings, a missing final newline and
 * a BOM (part of line 1) survive every merge.
 *
 * Breaks are the guard's (`text/lineEndings.ts`): LF, CRLF and a lone CR. A file starting with a UTF-16 BOM is
 * cut after the 16-bit code units LF and CR (CRLF as one break), at even offsets, so a line never ends inside a
 * code unit; any other file is cut at the bytes 0x0A and 0x0D (exact for UTF-8 and every single-byte
 * encoding). Text (a `string`) is taken as its UTF-8 bytes and given back as text.
 */
import { forEachBreak } from '../text/lineEndings';
import type { Content } from './revertTypes';

/** The content's bytes as a binary string. */
export function toBinary(content: Content): string {
  return typeof content === 'string'
    ? Buffer.from(content, 'utf8').toString('latin1')
    : Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1');
}

/** A binary string as bytes, or as text when the plan was given text only. */
export function fromBinary(binary: string, asBytes: boolean): Content {
  const bytes = Buffer.from(binary, 'latin1');
  return asBytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes.toString('utf8');
}

function splitUtf16(binary: string, littleEndian: boolean): string[] {
  const lines: string[] = [];
  const unit = (at: number): number =>
    littleEndian ? binary.charCodeAt(at) | (binary.charCodeAt(at + 1) << 8) : (binary.charCodeAt(at) << 8) | binary.charCodeAt(at + 1);
  let start = 0;
  for (let at = 0; at + 1 < binary.length; at += 2) {
    const code = unit(at);
    if (code !== 10 && code !== 13) continue;
    const crlf = code === 13 && at + 3 < binary.length && unit(at + 2) === 10;
    const end = at + (crlf ? 4 : 2);
    lines.push(binary.slice(start, end));
    start = end;
    if (crlf) at += 2;
  }
  if (start < binary.length) lines.push(binary.slice(start));
  return lines;
}

/** The binary string's lines, each with its line break (the last one may have none). */
export function splitLines(binary: string): string[] {
  if (binary.startsWith('\xff\xfe')) return splitUtf16(binary, true);
  if (binary.startsWith('\xfe\xff')) return splitUtf16(binary, false);
  const lines: string[] = [];
  let start = 0;
  forEachBreak(binary, (_at, next) => {
    lines.push(binary.slice(start, next));
    start = next;
  });
  if (start < binary.length) lines.push(binary.slice(start));
  return lines;
}
