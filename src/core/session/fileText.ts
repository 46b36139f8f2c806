/**
 * Loads a file as text the guard can reason about: raw bytes, content version, encoding, decoded text and its
 * line index. Binary or undecodable content is reported, never decoded with replacement characters.
 */
import { decodeText, detectEncoding, type TextEncoding } from '../edit/encoding';
import { indexLines, type LineIndex } from '../edit/lineEndings';
import type { FileStat } from '../ports';
import { sniffBinary } from '../read/binarySniff';
import type { Hasher } from '../version/contentVersion';
import type { GuardContext } from './context';

export interface FileText {
  bytes: Uint8Array;
  version: string;
  encoding: TextEncoding;
  text: string;
  index: LineIndex;
}

export type LoadedFile = { kind: 'text'; file: FileText } | { kind: 'binary'; type: string; size: number };

/** The version tag of some bytes, folding in an adapter's revision (an open document's version). */
export function versionOf(hasher: Hasher, bytes: Uint8Array, revision: string | undefined): string {
  const digest = hasher.hash(bytes);
  return revision === undefined ? digest : hasher.hash(new TextEncoder().encode(`${digest}:${revision}`));
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

export async function loadFile(ctx: GuardContext, target: string, stat: FileStat): Promise<LoadedFile> {
  const bytes = await ctx.fs.readFile(target);
  return textFromBytes(await ctx.hasher(), bytes, stat.revision);
}

export function lineAt(file: FileText, line: number): string {
  return file.text.slice(file.index.start(line), file.index.end(line));
}
