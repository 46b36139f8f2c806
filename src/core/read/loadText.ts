/**
 * Loads a file as text the guard can reason about: raw bytes, content version, encoding, decoded text and its
 * line index. Binary or undecodable content is reported, never decoded with replacement characters.
 */
import { decodeText, detectEncoding, type EncodeResult, encodeText, encodingLabel, type TextEncoding } from '../edit/encoding';
import { indexLines, type LineIndex } from '../edit/lineEndings';
import type { FileStat, FileSystem, TextCodec } from '../ports';
import { type SniffResult, sniffBinary } from './binarySniff';
import type { Hasher } from '../version/contentVersion';
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
}

export type LoadedFile = { kind: 'text'; file: FileText } | { kind: 'binary'; type: string; size: number };

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

/** `knownVersion`: the caller already hashed these bytes. */
export function textFromBytes(hasher: Hasher, bytes: Uint8Array, revision: string | undefined, knownVersion?: string): LoadedFile {
  const sniff = sniffBinary(bytes.subarray(0, 8192));
  if (sniff.binary) return { kind: 'binary', type: sniff.type, size: bytes.length };
  const encoding = detectEncoding(bytes);
  if (!encoding) return { kind: 'binary', type: 'undecodable text', size: bytes.length };
  const text = decodeText(bytes, encoding);
  return { kind: 'text', file: { bytes, version: knownVersion ?? versionOf(hasher, bytes, revision), encoding, text, index: indexLines(text) } };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/**
 * `textFromBytes`, then, for bytes that are not UTF-8, the adapter's codec if it round-trips them exactly
 * (a Windows-1252 or Shift-JIS file then reads as the user sees it; anything lossy stays byte-exact Latin-1).
 */
/** Where text comes from: the file system port and the hasher (a guard's context is one). */
export interface TextSource {
  fs: FileSystem;
  hasher(): Promise<Hasher>;
}

export async function decodeFile(ctx: TextSource, target: string, bytes: Uint8Array, revision: string | undefined, knownVersion?: string): Promise<LoadedFile> {
  const loaded = textFromBytes(await ctx.hasher(), bytes, revision, knownVersion);
  if (loaded.kind !== 'text' || loaded.file.encoding !== 'latin1' || !ctx.fs.codecFor) return loaded;
  const codec = await ctx.fs.codecFor(target).catch(() => undefined);
  const text = codec && (await exactlyDecoded(codec, bytes));
  return text === undefined ? loaded : { kind: 'text', file: { ...loaded.file, codec, text, index: indexLines(text) } };
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

/**
 * A file's bytes as exactly the text the guard reads and edits (`decodeFile` without a guard), for adapters that
 * locate changes in it before handing them to the guard (Apply Patch); undefined for binary or undecodable bytes.
 * `codec`: the adapter's codec for the file, as its `FileSystem.codecFor` gives it.
 */
export async function textOfBytes(bytes: Uint8Array, codec?: TextCodec): Promise<string | undefined> {
  if (sniffBinary(bytes.subarray(0, 8192)).binary) return undefined;
  const encoding = detectEncoding(bytes);
  if (!encoding) return undefined;
  const own = decodeText(bytes, encoding);
  if (encoding !== 'latin1' || !codec) return own;
  return (await exactlyDecoded(codec, bytes)) ?? own;
}

export async function loadFile(ctx: TextSource, target: string, stat: FileStat): Promise<LoadedFile> {
  return decodeFile(ctx, target, await ctx.fs.readFile(target), stat.revision);
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

export function lineAt(file: FileText, line: number): string {
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
