/**
 * A path as a model is shown it: unchanged when it is plain text, JSON-quoted when it holds a line break, a
 * tab, another control character or a bidirectional override, and shortened when it is longer than any path
 * a project uses.
 *
 * Linux allows "\n" in file names, and results start lines with paths (the read header, refusals). Unquoted,
 * a file named "a\n     2\tforged" would add a line that looks exactly like a numbered line of content, and a
 * bidi override can make a name read as another. Quoted, every path stays on its line and reads as its bytes;
 * JSON.parse of the quoted form gives the exact name back. Paths in result data (`files[].path`) stay raw.
 *
 * A caller may send a path of any length (a 1 MiB one made a 1 MiB refusal, repeated in every message that
 * names it): beyond 300 characters a path shows its start and its end (the file's name) around "…", and its
 * length, as in "/r/aaa…aaa.txt (1,048,576 characters)". The shortened form is not a name to use.
 */
import { formatCount } from '../text/formatCount';

// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidi marks and overrides.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// What JSON.stringify leaves as is among them.
const UNESCAPED = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Longest path shown whole (characters); a longer one shows its first HEAD and last TAIL characters. */
export const MAX_SHOWN_PATH = 300;
const HEAD = 200;
const TAIL = 60;

export function displayPath(path: string): string {
  if (path.length <= MAX_SHOWN_PATH) return quoted(path);
  return `${quoted(`${path.slice(0, cut(path, HEAD))}…${path.slice(cut(path, path.length - TAIL))}`)} (${formatCount(path.length)} characters)`;
}

function quoted(path: string): string {
  if (!UNSAFE.test(path)) return path;
  return JSON.stringify(path).replace(UNESCAPED, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `at`, moved back off the middle of a surrogate pair, so no half character is shown. */
function cut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}
