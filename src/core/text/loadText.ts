/**
 * A file as text the guard can reason about (bytes, content version, encoding, decoded text, line index): the one
 * place that sniffs, decodes, hashes and indexes, for every size and for unsaved buffers (the adapter's revision is
 * folded into the version). Binary or undecodable bytes are reported, never decoded with replacement characters.
 */
import { Buffer, isAscii } from 'node:buffer';
import { decodeText, detectEncoding, type EncodeResult, encodeText, encodingLabel, type TextEncoding } from './encoding';
import { indexLines, type LineIndex } from './lineEndings';
import type { FileStat, FileSystem, TextCodec } from '../ports';
import type { Hasher } from '../version/contentVersion';
import { type SniffResult, sniffBinary } from './binarySniff';
import { scanRange } from './scanRange';

/** Files larger than this are read by streaming a range instead of loading them. */
export const IN_MEMORY_MAX_BYTES = 8 * 1024 * 1024;

export interface FileText {
  bytes: Uint8Array;
  version: string;
  encoding: TextEncoding;
  /** The adapter's codec, when the file is in an encoding only the adapter knows (wins over `encoding`). */
  codec?: TextCodec;
  text: string;
  index: LineIndex;
  /** Every byte is ASCII (a UTF-8 file, its BOM aside): offsets in `text` are offsets in the bytes after the BOM. */
  ascii: boolean;
}

export type LoadedFile = { kind: 'text'; file: FileText } | { kind: 'binary'; type: string; size: number };

/** What decoding a version's bytes gave. Only encodings the core decodes itself (never an adapter's codec). */
export interface Decoded {
  text: string;
  index: LineIndex;
  encoding: Exclude<TextEncoding, 'latin1'>;
  /** Every byte of the file is ASCII: text offsets are byte offsets (after a BOM). */
  ascii: boolean;
}

/** Where versions decoded a moment ago (read, or written by the guard) are kept, so they are not decoded again. */
export interface DecodedVersions {
  decoded(version: string): Decoded | undefined;
}

/** Where text comes from: the file system port, the hasher and the snapshot store (a guard's context is one). */
export interface TextSource {
  fs: FileSystem;
  hasher(): Promise<Hasher>;
  snapshots?: DecodedVersions;
}

/** The version tag of some bytes, folding in an adapter's revision (an open document's version). */
export function versionOf(hasher: Hasher, bytes: Uint8Array, revision: string | undefined): string {
  return withRevision(hasher, hasher.hash(bytes), revision);
}

/** A digest of a file's bytes as its version: with the adapter's revision folded in, when it has one. */
export function withRevision(hasher: Hasher, digest: string, revision: string | undefined): string {
  return revision === undefined ? digest : hasher.hash(new TextEncoder().encode(`${digest}:${revision}`));
}

/** The version of a file as it is now: hashed whole, or streamed when it is too big to load. */
export async function currentVersion(fs: FileSystem, hasher: Hasher, target: string, stat: FileStat): Promise<string> {
  if (stat.size <= IN_MEMORY_MAX_BYTES) return versionOf(hasher, await fs.readFile(target), stat.revision);
  const reader = await fs.openChunkReader(target);
  try {
    return withRevision(hasher, (await scanRange(reader, { startLine: 1, maxLines: 0, maxBytes: 0, hasher })).version, stat.revision);
  } finally {
    await reader.close();
  }
}

/** The core's own reading of some bytes: its encoding and text, or why they are not text. */
function ownText(bytes: Uint8Array): { encoding: TextEncoding; text: string } | { binary: string } {
  const sniff = sniffBinary(bytes.subarray(0, 8192));
  if (sniff.binary) return { binary: sniff.type };
  const encoding = detectEncoding(bytes);
  if (!encoding) return { binary: 'undecodable text' };
  return { encoding, text: decodeText(bytes, encoding) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/** The codec's text for `bytes`, only when encoding it gives back exactly those bytes. */
async function exactlyDecoded(codec: TextCodec, bytes: Uint8Array): Promise<string | undefined> {
  try {
    const text = await codec.decode(bytes);
    return sameBytes(await codec.encode(text), bytes) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the bytes after a UTF-8 BOM (or all of them) are ASCII. */
export function asciiBody(bytes: Uint8Array, encoding: TextEncoding): boolean {
  if (encoding !== 'utf8' && encoding !== 'utf8bom') return false;
  return isAscii(bytes.subarray(encoding === 'utf8bom' ? 3 : 0));
}

/**
 * The bytes as text: the core's own decoding, then, for bytes that are not UTF-8, the adapter's codec if it
 * round-trips them exactly (a Windows-1252 or Shift-JIS file then reads as the user sees it; anything lossy stays
 * byte-exact Latin-1). `knownVersion`: the caller already hashed these bytes.
 */
export async function decodeFile(ctx: TextSource, target: string, bytes: Uint8Array, revision: string | undefined, knownVersion?: string): Promise<LoadedFile> {
  const version = knownVersion ?? versionOf(await ctx.hasher(), bytes, revision);
  const kept = ctx.snapshots?.decoded(version);
  if (kept) return { kind: 'text', file: { bytes, version, encoding: kept.encoding, text: kept.text, index: kept.index, ascii: kept.ascii } };
  const own = ownText(bytes);
  if ('binary' in own) return { kind: 'binary', type: own.binary, size: bytes.length };
  const codec = own.encoding === 'latin1' && ctx.fs.codecFor ? await ctx.fs.codecFor(target).catch(() => undefined) : undefined;
  const text = codec ? await exactlyDecoded(codec, bytes) : undefined;
  if (codec && text !== undefined) {
    return { kind: 'text', file: { bytes, version, encoding: own.encoding, codec, text, index: indexLines(text), ascii: false } };
  }
  return { kind: 'text', file: { bytes, version, encoding: own.encoding, text: own.text, index: indexLines(own.text), ascii: asciiBody(bytes, own.encoding) } };
}

/**
 * A file's bytes as exactly the text the guard reads and edits (`decodeFile` without a guard), for adapters that
 * locate changes in it before handing them to the guard (Apply Patch); undefined for binary or undecodable bytes.
 * `codec`: the adapter's codec for the file, as its `FileSystem.codecFor` gives it.
 */
export async function textOfBytes(bytes: Uint8Array, codec?: TextCodec): Promise<string | undefined> {
  const own = ownText(bytes);
  if ('binary' in own) return undefined;
  if (own.encoding !== 'latin1' || !codec) return own.text;
  return (await exactlyDecoded(codec, bytes)) ?? own.text;
}

export async function loadFile(ctx: TextSource, target: string, stat: FileStat): Promise<LoadedFile> {
  return decodeFile(ctx, target, await ctx.fs.readFile(target), stat.revision);
}

/** What decoding gave, for the snapshot store: only for encodings the core decodes itself. */
export function decodedOf(file: Pick<FileText, 'text' | 'index' | 'encoding' | 'codec' | 'ascii'>): Decoded | undefined {
  if (file.codec || file.encoding === 'latin1') return undefined;
  return { text: file.text, index: file.index, encoding: file.encoding, ascii: file.ascii };
}

/** Encodes text for a file: through its codec when it has one, else the core's own encodings. */
export async function encodeFor(file: { encoding: TextEncoding; codec?: TextCodec }, text: string): Promise<EncodeResult> {
  if (!file.codec) return encodeText(text, file.encoding);
  const bytes = await file.codec.encode(text);
  const back = await file.codec.decode(bytes);
  // A character the codec cannot hold comes back as something else: refuse rather than write a replacement.
  if (back === text) return { ok: true, bytes };
  let index = 0;
  while (index < text.length && text[index] === back[index]) index++;
  return { ok: false, char: String.fromCodePoint(text.codePointAt(index) ?? 0), index };
}

export function encodingName(file: { encoding: TextEncoding; codec?: TextCodec }): string {
  return file.codec ? file.codec.name : encodingLabel(file.encoding);
}

export function lineAt(file: { text: string; index: LineIndex }, line: number): string {
  return file.text.slice(file.index.start(line), file.index.end(line));
}

/** Whether a file looks binary, from its first bytes only (an unread file's content is never loaded). */
export async function sniffHead(fs: FileSystem, target: string): Promise<SniffResult> {
  const reader = await fs.openChunkReader(target);
  try {
    const head = new Uint8Array(8192);
    const count = await reader.read(head, 0);
    return sniffBinary(head.subarray(0, count));
  } finally {
    await reader.close();
  }
}
