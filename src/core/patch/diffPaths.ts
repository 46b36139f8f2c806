/**
 * File names in unified diff headers, read as git apply reads them (apply.c: `find_name_gnu`,
 * `find_name_traditional`, `git_header_name`): C-quoted names (`"a/x\tb"`, octal escapes for non-ASCII
 * bytes, decoded as UTF-8), a TAB ending the name (git adds one after names with spaces), a `diff -u`
 * timestamp after the name, and `/dev/null`.
 *
 * Prefixes are not stripped by a fixed count (git's -p1) but by what the patch shows: `a/` and `b/` (or
 * git's mnemonic `i/ w/ c/ o/`) on the two sides; a `--no-prefix` patch keeps its paths. See `stripPrefixes`.
 */

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A C-quoted name at the start of `text`: its value and the text after the closing quote. */
export function unquoteC(text: string): { value: string; rest: string } | undefined {
  if (!text.startsWith('"')) return undefined;
  const bytes: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return { value: Buffer.from(bytes).toString('utf8'), rest: text.slice(i + 1) };
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = text[++i];
    if (next === undefined) return undefined;
    if (next in ESCAPES) bytes.push(ESCAPES[next]);
    else if (/^[0-3][0-7]{2}$/.test(text.slice(i, i + 3))) {
      bytes.push(parseInt(text.slice(i, i + 3), 8));
      i += 2;
    } else return undefined;
  }
  return undefined;
}

const TIMESTAMP =
  /[ \t]+\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?: ?[+-]\d\d:?\d\d)?$|[ \t]+[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}$/;

/** The name on a `--- ` or `+++ ` line (without the marker); undefined for /dev/null. */
export function headerName(raw: string): string | undefined {
  const quoted = unquoteC(raw);
  let name: string;
  if (quoted) name = quoted.value;
  else {
    const tab = raw.indexOf('\t');
    name = (tab === -1 ? raw.replace(TIMESTAMP, '') : raw.slice(0, tab)).replace(/\s+$/, '');
  }
  return name === '/dev/null' ? undefined : name;
}

/** A name on `rename from`, `copy to`, … lines: C-quoted or taken as it is. */
export function plainName(raw: string): string {
  return unquoteC(raw)?.value ?? raw.replace(/\s+$/, '');
}

const afterFirstSlash = (name: string): string | undefined => (name.includes('/') ? name.slice(name.indexOf('/') + 1) : undefined);

/**
 * The two names of a `diff --git <old> <new>` line. Unquoted names may hold spaces: the split is where both
 * halves name the same file (git_header_name's rule), so this is only known for a file whose name does not
 * change; a rename's names come from its `rename from`/`rename to` lines.
 */
export function diffGitNames(rest: string): [string, string] | undefined {
  const first = unquoteC(rest);
  if (first) {
    const tail = first.rest.replace(/^ +/, '');
    const second = unquoteC(tail)?.value ?? tail.replace(/\s+$/, '');
    return second ? [first.value, second] : undefined;
  }
  const text = rest.replace(/\s+$/, '');
  const quotedSecond = text.lastIndexOf(' "');
  if (quotedSecond !== -1) {
    const second = unquoteC(text.slice(quotedSecond + 1));
    if (second && second.rest === '') return [text.slice(0, quotedSecond), second.value];
  }
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) {
    const a = text.slice(0, i);
    const b = text.slice(i + 1);
    if (a === b || (afterFirstSlash(a) !== undefined && afterFirstSlash(a) === afterFirstSlash(b))) return [a, b];
  }
  return undefined;
}

const MNEMONIC = /^[abciow]\//;

/**
 * Drops the prefixes git puts before both names (`a/` `b/`, or the mnemonic `c/ i/ o/ w/`), only when both
 * sides show them (a side that is /dev/null counts as showing it): a `--no-prefix` patch of `a/x` keeps `a/x`.
 */
export function stripPrefixes(oldName: string | undefined, newName: string | undefined): [string | undefined, string | undefined] {
  const prefixOf = (name: string | undefined): string | undefined => (name === undefined ? undefined : MNEMONIC.exec(name)?.[0]);
  const oldPrefix = prefixOf(oldName);
  const newPrefix = prefixOf(newName);
  const standard = (oldName === undefined || oldPrefix === 'a/') && (newName === undefined || newPrefix === 'b/');
  const mnemonic = oldPrefix !== undefined && newPrefix !== undefined && oldPrefix !== newPrefix;
  if ((oldName ?? newName) !== undefined && (standard || mnemonic)) return [oldName?.slice(2), newName?.slice(2)];
  return [oldName, newName];
}
