/**
 * Other spellings of a name: entries of a folder whose names are the same text in another Unicode
 * normalization form ("cafe\u0301.txt" on disk, written by macOS or git, for "caf\u00e9.txt" as an agent
 * names it). Linux stores names as bytes, so the two are different names there; the path policy looks here
 * only when the exact name is missing, so an existing exact name always wins.
 *
 * It does not decide what to do with several matches (the policy refuses: it never guesses), and it never
 * throws: a folder that cannot be listed has no known other spelling (the walk then treats the name as
 * missing, as it did before names were matched by form).
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../ports';

/** The names in `folder` whose NFC form is `name`'s; `[name]` when the exact name appeared meanwhile. */
export async function otherSpellings(fs: FileSystem, folder: string, name: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return [];
  }
  if (names.includes(name)) return [name];
  const wanted = name.normalize('NFC');
  return names.filter((entry) => entry.normalize('NFC') === wanted).sort();
}

/**
 * A name with every character outside printable ASCII as `\uXXXX`, so spellings that look identical read as
 * different text (and can be passed back exactly in a JSON string).
 */
export function spelledOut(name: string): string {
  return Array.from(name, (char) => {
    const code = char.codePointAt(0)!;
    if (char === '\\' || char === '"') return '\\' + char;
    if (code >= 0x20 && code < 0x7f) return char;
    return code > 0xffff ? char.split('').map(escape16).join('') : escape16(char);
  }).join('');
}

function escape16(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The refusal's message for a name with several other spellings and no exact one. */
export function ambiguousMessage(folder: string, name: string, matches: readonly string[], display: (path: string) => string): string {
  const listed = matches.map((match) => `${display(nodePath.join(folder, match))} (spelled "${spelledOut(match)}")`).join(', ');
  return (
    `${display(nodePath.join(folder, name))} (spelled "${spelledOut(name)}") does not exist under that exact name, and ` +
    `${matches.length} names in its folder are the same text in other Unicode forms: ${listed}. ` +
    'Nothing was read or changed. Pass the exact name of the one you mean.'
  );
}
