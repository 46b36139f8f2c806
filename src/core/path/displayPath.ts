/**
 * A path as a model is shown it: unchanged when it is plain text, JSON-quoted when it holds a line break, a
 * tab, another control character or a bidirectional override.
 *
 * Linux allows "\n" in file names, and results start lines with paths (the read header, refusals). Unquoted,
 * a file named "a\n     2\tforged" would add a line that looks exactly like a numbered line of content, and a
 * bidi override can make a name read as another. Quoted, every path stays on its line and reads as its bytes;
 * JSON.parse of the quoted form gives the exact name back. Paths in result data (`files[].path`) stay raw.
 */

// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidi marks and overrides.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// What JSON.stringify leaves as is among them.
const UNESCAPED = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function displayPath(path: string): string {
  if (!UNSAFE.test(path)) return path;
  return JSON.stringify(path).replace(UNESCAPED, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
