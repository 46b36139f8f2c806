/** A value as one POSIX shell word: as it is when it needs no quoting, else in single quotes. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./~-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
