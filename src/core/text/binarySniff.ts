/**
 * Binary detection from the first bytes of a file (up to 8 KiB), so reads and edits of non-text payloads are
 * refused with `BINARY_FILE` and a type the agent can act on, instead of a page of mojibake.
 *
 * A head is binary when it starts with the magic number of a clearly binary format, contains a NUL byte, or
 * is more than 30% control characters (tab, LF, CR, FF, VT and ESC are text: ANSI-coloured logs stay
 * readable). Heads with a UTF-16 BOM are judged per 16-bit code unit, since every ASCII character there has a
 * NUL half. Magic numbers win over the byte tests because a PDF or GIF header can be free of NULs.
 *
 * Not here: decoding (`encoding.ts` decides whether text bytes decode exactly). "MZ" alone does not make
 * a file binary (plain text may start with it); it needs a PE header in the head, or NULs, which real DOS
 * headers always have. MP3 and MP4 signatures only name the type of a head that is already binary.
 */

export type SniffResult = { binary: false } | { binary: true; type: string };

interface Signature {
  type: string;
  /** True when the signature alone proves the file is binary. */
  decisive: boolean;
  matches(head: Uint8Array): boolean;
}

function startsWith(head: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (head.length < at + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[at + i] !== bytes[i]) return false;
  return true;
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

const SIG_GIF87A = ascii('GIF87a');
const SIG_GIF89A = ascii('GIF89a');
const SIG_RIFF = ascii('RIFF');
const SIG_WEBP = ascii('WEBP');
const SIG_PDF = ascii('%PDF-');
const SIG_MZ = ascii('MZ');
const SIG_SQLITE = ascii('SQLite format 3\0');
const SIG_ID3 = ascii('ID3');
const SIG_FTYP = ascii('ftyp');

function uint32be(head: Uint8Array, at: number): number {
  return ((head[at] << 24) | (head[at + 1] << 16) | (head[at + 2] << 8) | head[at + 3]) >>> 0;
}

function hasPeHeader(head: Uint8Array): boolean {
  if (!startsWith(head, SIG_MZ) || head.length < 0x40) return false;
  const peOffset = head[0x3c] | (head[0x3d] << 8) | (head[0x3e] << 16) | (head[0x3f] << 24);
  return peOffset >= 0x40 && startsWith(head, [0x50, 0x45, 0, 0], peOffset);
}

/** An MPEG audio frame header of layer III with a valid version (a UTF-16 LE BOM, FF FE, is layer I). */
function isMp3FrameSync(head: Uint8Array): boolean {
  if (head.length < 2 || head[0] !== 0xff || (head[1] & 0xe0) !== 0xe0) return false;
  return ((head[1] >> 3) & 0b11) !== 0b01 && ((head[1] >> 1) & 0b11) === 0b01;
}

const signatures: readonly Signature[] = [
  { type: 'PNG image', decisive: true, matches: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'JPEG image', decisive: true, matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { type: 'GIF image', decisive: true, matches: (h) => startsWith(h, SIG_GIF87A) || startsWith(h, SIG_GIF89A) },
  { type: 'WebP image', decisive: true, matches: (h) => startsWith(h, SIG_RIFF) && startsWith(h, SIG_WEBP, 8) },
  { type: 'PDF document', decisive: true, matches: (h) => startsWith(h, SIG_PDF) },
  {
    type: 'ZIP archive',
    decisive: true,
    matches: (h) => startsWith(h, [0x50, 0x4b, 0x03, 0x04]) || startsWith(h, [0x50, 0x4b, 0x05, 0x06]) || startsWith(h, [0x50, 0x4b, 0x07, 0x08]),
  },
  { type: 'gzip archive', decisive: true, matches: (h) => startsWith(h, [0x1f, 0x8b]) },
  { type: 'ELF executable', decisive: true, matches: (h) => startsWith(h, [0x7f, 0x45, 0x4c, 0x46]) },
  {
    type: 'Mach-O executable',
    decisive: true,
    matches: (h) =>
      startsWith(h, [0xfe, 0xed, 0xfa, 0xce]) ||
      startsWith(h, [0xfe, 0xed, 0xfa, 0xcf]) ||
      startsWith(h, [0xce, 0xfa, 0xed, 0xfe]) ||
      startsWith(h, [0xcf, 0xfa, 0xed, 0xfe]) ||
      // Universal binaries share CAFEBABE with Java class files; an architecture count below 45 (the first
      // class-file major version) tells them apart.
      (startsWith(h, [0xca, 0xfe, 0xba, 0xbe]) && h.length >= 8 && uint32be(h, 4) < 45),
  },
  { type: 'Windows executable', decisive: true, matches: hasPeHeader },
  { type: 'Windows executable', decisive: false, matches: (h) => startsWith(h, SIG_MZ) },
  { type: 'WebAssembly module', decisive: true, matches: (h) => startsWith(h, [0x00, 0x61, 0x73, 0x6d]) },
  { type: 'SQLite database', decisive: true, matches: (h) => startsWith(h, SIG_SQLITE) },
  { type: 'MP3 audio', decisive: false, matches: (h) => startsWith(h, SIG_ID3) || isMp3FrameSync(h) },
  { type: 'MP4 video', decisive: false, matches: (h) => startsWith(h, SIG_FTYP, 4) },
];

const CONTROL_RATIO = 0.3;

function isControl(code: number): boolean {
  if (code === 0x7f) return true;
  if (code >= 0x20) return false;
  return code !== 0x09 && code !== 0x0a && code !== 0x0b && code !== 0x0c && code !== 0x0d && code !== 0x1b;
}

const CONTROL_BYTE = Uint8Array.from({ length: 256 }, (_, byte) => (isControl(byte) ? 1 : 0));

// The control-character ratio is judged on the first 2 KiB (NUL bytes are searched in the whole head):
// enough to tell text from binary, at a quarter of the cost on every read.
const RATIO_SAMPLE = 2048;

function looksBinaryAsBytes(head: Uint8Array): boolean {
  if (head.indexOf(0) !== -1) return true;
  const sample = Math.min(head.length, RATIO_SAMPLE);
  let controls = 0;
  for (let i = 0; i < sample; i++) controls += CONTROL_BYTE[head[i]];
  return controls > sample * CONTROL_RATIO;
}

function looksBinaryAsUtf16(head: Uint8Array, littleEndian: boolean): boolean {
  const units = head.length >> 1;
  let controls = 0;
  for (let i = 2; i + 1 < head.length; i += 2) {
    const unit = littleEndian ? head[i] | (head[i + 1] << 8) : (head[i] << 8) | head[i + 1];
    if (isControl(unit)) controls++;
  }
  return controls > (units - 1) * CONTROL_RATIO;
}

export function sniffBinary(head: Uint8Array): SniffResult {
  const signature = signatures.find((candidate) => candidate.matches(head));
  if (signature?.decisive) return { binary: true, type: signature.type };
  let binary: boolean;
  if (startsWith(head, [0xff, 0xfe])) binary = looksBinaryAsUtf16(head, true);
  else if (startsWith(head, [0xfe, 0xff])) binary = looksBinaryAsUtf16(head, false);
  else binary = looksBinaryAsBytes(head);
  return binary ? { binary: true, type: signature?.type ?? 'binary data' } : { binary: false };
}
