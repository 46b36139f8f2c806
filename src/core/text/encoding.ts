/**
 * Text encodings handled byte-exactly: for every encoding `detectEncoding` returns, encoding the decoded text
 * gives back the original bytes, so an edit leaves every byte outside its region identical. Nothing is ever decoded or encoded with replacement characters.
 *
 * Detection: a UTF-16 BOM (LE or BE) means UTF-16, and an odd byte count then means "not decodable exactly";
 * otherwise bytes that are valid UTF-8 (same verdict as a fatal `TextDecoder`) are UTF-8, with or without its
 * BOM; anything else is Latin-1, a bijection between bytes and U+0000-U+00FF, so even an unknown legacy
 * encoding survives an edit of its ASCII parts. UTF-16 keeps lone surrogates as they are, both ways.
 *
 * Not here: binary detection (`binarySniff.ts` runs first), line endings (`lineEndings.ts`), and
 * encodings without a BOM other than UTF-8 and Latin-1 (UTF-16 without a BOM is sniffed as binary).
 */
import { Buffer, isUtf8 } from 'node:buffer';

export type TextEncoding = 'utf8' | 'utf8bom' | 'utf16le' | 'utf16be' | 'latin1';

export type EncodeResult = { ok: true; bytes: Uint8Array } | { ok: false; char: string; index: number };

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];

const labels: Record<TextEncoding, string> = {
  utf8: 'UTF-8',
  utf8bom: 'UTF-8 with BOM',
  utf16le: 'UTF-16 LE',
  utf16be: 'UTF-16 BE',
  latin1: 'Latin-1 (ISO-8859-1)',
};

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((byte, i) => bytes[i] === byte);
}

function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** `undefined` when the bytes cannot be decoded exactly (a UTF-16 BOM followed by an odd number of bytes). */
export function detectEncoding(bytes: Uint8Array): TextEncoding | undefined {
  if (startsWith(bytes, UTF16LE_BOM)) return bytes.length % 2 === 0 ? 'utf16le' : undefined;
  if (startsWith(bytes, UTF16BE_BOM)) return bytes.length % 2 === 0 ? 'utf16be' : undefined;
  if (!isUtf8(bytes)) return 'latin1';
  return startsWith(bytes, UTF8_BOM) ? 'utf8bom' : 'utf8';
}

/** Decodes `bytes` in `encoding`, dropping its BOM; the encoding must be the one `detectEncoding` chose. */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  switch (encoding) {
    case 'utf8':
      return view(bytes).toString('utf8');
    case 'utf8bom':
      return view(bytes.subarray(startsWith(bytes, UTF8_BOM) ? 3 : 0)).toString('utf8');
    case 'utf16le':
      return view(bytes.subarray(startsWith(bytes, UTF16LE_BOM) ? 2 : 0)).toString('utf16le');
    case 'utf16be': {
      const swapped = Buffer.from(bytes.subarray(startsWith(bytes, UTF16BE_BOM) ? 2 : 0));
      return swapped.swap16().toString('utf16le');
    }
    case 'latin1':
      return view(bytes).toString('latin1');
  }
}

const LONE_SURROGATE = /\p{Cs}/u;
const ABOVE_LATIN1 = /[^\u0000-\u00ff]/u;

function refusal(text: string, index: number): EncodeResult {
  return { ok: false, char: String.fromCodePoint(text.codePointAt(index) ?? 0), index };
}

function withBom(bom: readonly number[], bodyLength: number, write: (target: Buffer) => void): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(bom.length + bodyLength);
  bytes.set(bom);
  write(bytes.subarray(bom.length));
  return bytes;
}

/**
 * Encodes `text` in `encoding`, adding its BOM. Refuses (with the first offending character and its UTF-16
 * index) what the encoding cannot hold exactly: characters above U+00FF in Latin-1, and lone surrogates in
 * UTF-8, which would otherwise become U+FFFD.
 */
export function encodeText(text: string, encoding: TextEncoding): EncodeResult {
  switch (encoding) {
    case 'utf8':
    case 'utf8bom': {
      const bad = text.search(LONE_SURROGATE);
      if (bad !== -1) return refusal(text, bad);
      if (encoding === 'utf8') return { ok: true, bytes: Buffer.from(text, 'utf8') };
      return { ok: true, bytes: withBom(UTF8_BOM, Buffer.byteLength(text, 'utf8'), (body) => body.write(text, 'utf8')) };
    }
    case 'utf16le':
      return { ok: true, bytes: withBom(UTF16LE_BOM, text.length * 2, (body) => body.write(text, 'utf16le')) };
    case 'utf16be':
      return {
        ok: true,
        bytes: withBom(UTF16BE_BOM, text.length * 2, (body) => {
          body.write(text, 'utf16le');
          body.swap16();
        }),
      };
    case 'latin1': {
      const bad = text.search(ABOVE_LATIN1);
      if (bad !== -1) return refusal(text, bad);
      return { ok: true, bytes: Buffer.from(text, 'latin1') };
    }
  }
}

export function encodingLabel(encoding: TextEncoding): string {
  return labels[encoding];
}

/**
 * The bytes of a UTF-8 file whose text is all ASCII (so each character is one byte at the same offset, after
 * `bomLength`) with `splices` of its text replaced: only the new text is encoded, the rest is copied as it is.
 * `ascii`: the new text is ASCII too (as many bytes as characters), so the result is all ASCII.
 */
export function spliceAsciiUtf8(
  bytes: Uint8Array,
  bomLength: number,
  splices: readonly { start: number; end: number; text: string }[],
): EncodeResult & { ascii?: boolean } {
  const parts: Uint8Array[] = [bytes.subarray(0, bomLength)];
  let at = bomLength;
  let ascii = true;
  for (const splice of splices) {
    const encoded = encodeText(splice.text, 'utf8');
    if (!encoded.ok) return encoded;
    ascii &&= encoded.bytes.length === splice.text.length;
    parts.push(bytes.subarray(at, bomLength + splice.start), encoded.bytes);
    at = bomLength + splice.end;
  }
  parts.push(bytes.subarray(at));
  return { ok: true, bytes: Buffer.concat(parts), ascii };
}
