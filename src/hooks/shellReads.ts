/**
 * Which file lines a shell command shows, for agents that read files with their shell (Codex): a command of one
 * file reader (`cat`, `cat -n`, `nl -ba`, `sed -n 'a,bp'`, `head`, `tail`, `rg -n`/`grep -n` with one file),
 * optionally piped through `head`, `tail` or `sed -n 'a,bp'`, as the output's form (numbered lines, or plain lines
 * from `first` to `last`, negative counted from the end) the guard matches exactly against the file
 * (`ShownOutput`). Anything else (another program or option, a redirection, a second command, an expansion, a glob,
 * several files) is not attributed: it shows nothing the guard counts. Pure, and small: the hook process loads it
 * before each shell call to tell whether the window need hear of it.
 */

export interface ShellRead {
  /** The file, as the command names it (relative to the shell's folder unless absolute). */
  file: string;
  form: 'numbered' | 'plain';
  first?: number;
  last?: number;
}

/** Characters that make a word mean more than itself to the shell, outside quotes. */
const SPECIAL = /[;&<>()`$*?[\]{}~!#\n\r\\]/;

/** The words of a command and its `|` separators; undefined for anything but plain words, quotes and pipes. */
export function shellWords(command: string): (string | '|')[] | undefined {
  const words: (string | '|')[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '|') {
      if (command[i + 1] === '|') return undefined;
      if (word !== undefined) words.push(word);
      word = undefined;
      words.push('|');
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = command.indexOf('"', i + 1);
      const inner = end < 0 ? undefined : command.slice(i + 1, end);
      // Inside double quotes only `$`, backquotes and backslashes mean more: refused rather than interpreted.
      if (inner === undefined || /[$`\\]/.test(inner)) return undefined;
      word = (word ?? '') + inner;
      i = end;
    } else if (SPECIAL.test(c)) return undefined;
    else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

const count = (text: string | undefined): number | undefined => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);

/** `head`/`tail`'s line count: `-n K`, `-nK`, `--lines=K`, `-K` (tail: `+K` from line K); undefined options refuse. */
function lineCountOption(args: string[]): { count: number; from?: boolean; rest: string[] } | undefined {
  const [flag, ...rest] = args;
  if (flag === undefined || !flag.startsWith('-')) return { count: 10, rest: args };
  const value = flag === '-n' ? rest.shift() : flag.startsWith('--lines=') ? flag.slice(8) : flag.startsWith('-n') ? flag.slice(2) : flag.slice(1);
  if (value === undefined) return undefined;
  if (value.startsWith('+') && count(value.slice(1)) !== undefined) return { count: count(value.slice(1))!, from: true, rest };
  const lines = count(value);
  return lines === undefined ? undefined : { count: lines, rest };
}

/** `sed -n 'A,Bp'`, `'Ap'` or `'A,$p'`: the lines it prints, or undefined for any other script. */
function sedRange(args: string[]): { first: number; last: number; rest: string[] } | undefined {
  if (args[0] !== '-n' || args[1] === undefined) return undefined;
  const match = /^(\d+)(?:,(\d+|\$))?p$/.exec(args[1]);
  if (!match) return undefined;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : match[2] === '$' ? -1 : Number(match[2]);
  return first >= 1 && (last === -1 || last >= first) ? { first, last, rest: args.slice(2) } : undefined;
}

/** Options of `rg`/`grep` that change only which lines match or how many around them (context lines, `N-text`). */
const SEARCH_FLAGS = new Set(['-n', '--line-number', '-i', '-F', '-w', '-S', '-x', '--fixed-strings', '--ignore-case', '--word-regexp']);
const SEARCH_WITH_VALUE = new Set(['-e', '-A', '-B', '-C', '--context']);

/** `rg -n PATTERN FILE` or `grep -n PATTERN FILE` (the number option required: without it nothing is numbered). */
function search(args: string[]): ShellRead | undefined {
  let numbered = false;
  let pattern: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (SEARCH_FLAGS.has(arg)) numbered ||= arg === '-n' || arg === '--line-number';
    else if (SEARCH_WITH_VALUE.has(arg)) {
      if (args[i + 1] === undefined) return undefined;
      if (arg === '-e') pattern = args[i + 1];
      i++;
    } else if (arg.startsWith('-')) return undefined;
    else operands.push(arg);
  }
  const files = pattern === undefined ? operands.slice(1) : operands;
  return numbered && files.length === 1 ? { file: files[0], form: 'numbered' } : undefined;
}

/** The first command of the pipeline: it reads one file. */
function reader(program: string, args: string[]): ShellRead | undefined {
  const one = (rest: string[], read: Omit<ShellRead, 'file'>): ShellRead | undefined =>
    rest.length === 1 && !rest[0].startsWith('-') ? { file: rest[0], ...read } : undefined;
  switch (program) {
    case 'cat':
      return args[0] === '-n' ? one(args.slice(1), { form: 'numbered' }) : one(args, { form: 'plain', first: 1, last: -1 });
    case 'nl':
      return args[0] === '-ba'
        ? one(args.slice(1), { form: 'numbered' })
        : args[0] === '-b' && args[1] === 'a'
          ? one(args.slice(2), { form: 'numbered' })
          : one(args, { form: 'numbered' });
    case 'sed': {
      const range = sedRange(args);
      return range && one(range.rest, { form: 'plain', first: range.first, last: range.last });
    }
    case 'head': {
      const option = lineCountOption(args);
      return option && !option.from ? one(option.rest, { form: 'plain', first: 1, last: Math.max(1, option.count) }) : undefined;
    }
    case 'tail': {
      const option = lineCountOption(args);
      if (!option || option.count < 1) return undefined;
      return one(option.rest, option.from ? { form: 'plain', first: option.count, last: -1 } : { form: 'plain', first: -option.count, last: -1 });
    }
    case 'rg':
    case 'grep':
      return search(args);
    default:
      return undefined;
  }
}

type Filter = { kind: 'head' | 'tail' | 'tailFrom'; count: number } | { kind: 'range'; from: number; to?: number };

/** A filter after `|`: `head`, `tail` or `sed -n 'a,bp'`, or undefined for anything else. */
function filterOf(program: string, args: string[]): Filter | undefined {
  if (program === 'sed') {
    const range = sedRange(args);
    return range && !range.rest.length ? { kind: 'range', from: range.first, ...(range.last === -1 ? {} : { to: range.last }) } : undefined;
  }
  if (program !== 'head' && program !== 'tail') return undefined;
  const option = lineCountOption(args);
  if (!option || option.rest.length || option.count < 1) return undefined;
  if (option.from) return program === 'tail' ? { kind: 'tailFrom', count: option.count } : undefined;
  return { kind: program, count: option.count };
}

/**
 * Where a filter's output starts and ends in the file, from where its input did (signed: negative from the end;
 * -1 the last line). An end that depends on the file's length in a way one number cannot say is left unknown,
 * and the guard then matches only from the other end.
 */
export function narrowed(first: number | undefined, last: number | undefined, filter: Filter): { first?: number; last?: number } {
  const known = (value: number | undefined): { first?: number; last?: number } => (value === undefined ? {} : { first: value });
  const ending = (value: number | undefined): { last?: number } => (value === undefined ? {} : { last: value });
  switch (filter.kind) {
    case 'head': {
      const end =
        first === undefined
          ? undefined
          : first > 0
            ? last === -1
              ? first + filter.count - 1
              : last !== undefined && last > 0
                ? Math.min(last, first + filter.count - 1)
                : undefined
            : first + filter.count - 1 >= -1
              ? last
              : undefined;
      return { ...known(first), ...ending(end) };
    }
    case 'tail': {
      // From its end: exact when the input ran to the file's end from its first line or from the end.
      const start = last !== -1 ? undefined : first === 1 ? -filter.count : first !== undefined && first < 0 ? Math.max(first, -filter.count) : undefined;
      return { ...known(start), ...ending(last) };
    }
    case 'tailFrom':
      return { ...known(first !== undefined && (first > 0 || filter.count === 1) ? first + filter.count - 1 : undefined), ...ending(last) };
    case 'range': {
      const start = first !== undefined && (first > 0 || filter.from === 1) ? first + filter.from - 1 : undefined;
      if (filter.to === undefined) return { ...known(start), ...ending(last) };
      const end =
        first === undefined || first < 0
          ? undefined
          : last === -1
            ? first + filter.to - 1
            : last !== undefined && last > 0
              ? Math.min(last, first + filter.to - 1)
              : undefined;
      return { ...known(start), ...ending(end) };
    }
  }
}

/** The file a shell command reads and the form of what it shows of it, or undefined when it cannot be told. */
export function shellRead(command: string): ShellRead | undefined {
  const words = shellWords(command.trim());
  if (!words || words.length === 0) return undefined;
  const stages: string[][] = [[]];
  for (const word of words) word === '|' ? stages.push([]) : stages[stages.length - 1].push(word);
  if (stages.some((stage) => stage.length === 0) || stages.length > 3) return undefined;
  let read = reader(stages[0][0], stages[0].slice(1));
  for (const [program, ...args] of stages.slice(1)) {
    const filter = filterOf(program, args);
    if (!read || !filter) return undefined;
    // A numbered output keeps its numbers whatever a filter takes of it.
    if (read.form === 'plain') read = { file: read.file, form: 'plain', ...narrowed(read.first, read.last, filter) };
  }
  return read;
}
