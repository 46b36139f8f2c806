// ReadGate trajectory replay: `npm run bench:replay` (builds dist/ first; `npm run bench` runs it at its end).
// Not part of `npm test`. Plain Node, no dependencies beyond dist/core.js. See bench/README.md.
//
// Input: ../shared/traces/sample_steps.jsonl (relative to the repo; another folder as the first argument): real
// agent trajectories parsed into read / edit / write / create / shell steps. Each trajectory is replayed through
// the real guard, one session per trajectory, on a temp folder whose files are rebuilt from what the trace shows:
//
// - A file's lines come from the reads' outputs placed at their line numbers; lines no read shows are
//   deterministic filler. A line of the file as the trajectory found it ("base line") keeps its identity through
//   the edits, so what a later read shows of it is known from the start: the replay runs model-only passes that
//   learn these lines (and where the file ends) until nothing new is learned, then one pass with the guard.
// - The agent's edits, writes and creates, and its rm / mv / cp / git checkout / touch, are applied to the files
//   outside the guard, as its shell did. `sed -i` runs through a small sed (s, d, a, i, c, r; line, $, /re/ and
//   range addresses); what cannot be reproduced (python scripts, unparsable commands) is skipped and counted.
// - Before each read, lines whose text differs from what the agent was shown are rewritten on disk (an outside
//   change, as build scripts did), so the file at each read holds what the agent saw, as far as the trace tells.
//
// Every read step is then one guarded read per line range (`session.read(path, { offset, limit })`, or no
// options for a whole file) and the same read in a session with `dedup: false`: the no-guard baseline, the full
// content each read would give. Twice: with the default limits, and with a 30,000-character result budget.
// Deterministic: no randomness, no clock in the figures. `--list` prints one line per read as well. Exits 1 when
// the replay's read steps differ from the trace's or a read is refused for a reason the trace does not explain.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const require = createRequire(import.meta.url);

const CONFIGS = [
  { name: 'default limits', options: {} },
  { name: 'result budget 30,000 chars', options: { resultBudget: { maxChars: 30_000 } } },
];
/** mini-swe-agent shows head and tail of an output longer than this; the trace keeps no text then. */
const AGENT_OUTPUT_CAP = 10_000;
const MAX_PASSES = 12;
const RELEARN_PASSES = 4;
const ARGS = process.argv.slice(2);
/** `--list`: one line per guarded read (default limits): the step, the call, lines rewritten before it, the result. */
const LIST = ARGS.includes('--list');

// ------------------------------------------------------------------------------------------- shell words

/** Words of the first simple command in `cmd` (quotes and backslashes resolved); stops at ; & | < > or newline. */
function shellWords(cmd) {
  const words = [];
  let word = null;
  let i = 0;
  const push = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  while (i < cmd.length) {
    const c = cmd[i];
    if (c === "'") {
      const end = cmd.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + cmd.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      word = word ?? '';
      i++;
      while (i < cmd.length && cmd[i] !== '"') {
        if (cmd[i] === '\\' && '$`"\\\n'.includes(cmd[i + 1])) {
          if (cmd[i + 1] !== '\n') word += cmd[i + 1];
          i += 2;
        } else word += cmd[i++];
      }
      if (i >= cmd.length) return null;
      i++;
    } else if (c === '\\') {
      word = (word ?? '') + (cmd[i + 1] ?? '');
      i += 2;
    } else if (' \t'.includes(c)) {
      push();
      i++;
    } else if (';&|<>\n'.includes(c)) {
      break;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  push();
  return words;
}

// --------------------------------------------------------------------------------------------- tiny sed

/** A GNU sed basic (or extended) regular expression as a JavaScript one. Throws on what it cannot translate. */
function sedRegex(src, ere, flags) {
  let out = '';
  let atStart = true; // where ^ anchors and * is literal
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[++i];
      if (n === undefined) throw new Error('trailing backslash');
      if (!ere && '(){}+?|'.includes(n)) out += n;
      else if ('nt'.includes(n)) out += `\\${n}`;
      else if ('wWsSbB'.includes(n)) out += `\\${n}`;
      else if (n === '<' || n === '>') out += '\\b';
      else if (n === '`') out += '^';
      else if (n === "'") out += '$';
      else if (n === 'x') {
        out += `\\x${src.slice(i + 1, i + 3)}`;
        i += 2;
      } else if (/[1-9]/.test(n)) out += `\\${n}`;
      else out += /[\\^$.*+?()[\]{}|/-]/.test(n) ? `\\${n}` : n;
      atStart = !ere && (n === '(' || n === '|');
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (src[j] === '^') cls += src[j++];
      if (src[j] === ']') (cls += '\\]'), j++;
      while (j < src.length && src[j] !== ']') {
        const posix = src.slice(j).match(/^\[:(\w+):\]/);
        if (posix) {
          const map = { alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f' };
          if (!map[posix[1]]) throw new Error(`class ${posix[1]}`);
          cls += map[posix[1]];
          j += posix[0].length;
        } else {
          cls += src[j] === '\\' || src[j] === '[' ? `\\${src[j]}` : src[j];
          j++;
        }
      }
      if (j >= src.length) throw new Error('unterminated bracket');
      out += `${cls}]`;
      i = j;
      atStart = false;
      continue;
    }
    if (c === '^') out += ere || atStart ? '^' : '\\^';
    else if (c === '$') out += ere || i === src.length - 1 || src.startsWith('\\)', i + 1) || src.startsWith('\\|', i + 1) ? '$' : '\\$';
    else if (c === '*' && atStart && !ere) out += '\\*';
    else if (!ere && '(){}+?|'.includes(c)) out += `\\${c}`;
    else if (c === '/') out += '\\/';
    else out += c;
    atStart = ere && (c === '(' || c === '|');
  }
  return new RegExp(out, flags);
}

/** A replacement (`&`, `\1`…`\9`, `\n`, `\t`, `\xHH`, `\c` → c) as a function of the match. */
function sedReplacement(src) {
  const parts = []; // strings, or numbers for groups
  let lit = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '&') {
      parts.push(lit, 0);
      lit = '';
    } else if (c === '\\') {
      const n = src[++i] ?? '';
      if (/[0-9]/.test(n)) {
        parts.push(lit, Number(n));
        lit = '';
      } else if (n === 'n' || n === '\n') lit += '\n';
      else if (n === 't') lit += '\t';
      else if (n === 'x' && /^[0-9a-fA-F]{2}$/.test(src.slice(i + 1, i + 3))) {
        lit += String.fromCharCode(parseInt(src.slice(i + 1, i + 3), 16));
        i += 2;
      } else if ('LUElu'.includes(n) && n !== '') throw new Error('case conversion');
      else lit += n;
    } else lit += c;
  }
  parts.push(lit);
  return (groups) => parts.map((p) => (typeof p === 'number' ? groups[p] ?? '' : p)).join('');
}

/** Reads up to an unescaped `delim` from `i`; returns [text with `\delim` unescaped, index after delim]. */
function untilDelim(s, i, delim) {
  let out = '';
  while (i < s.length && s[i] !== delim) {
    if (s[i] === '\\' && s[i + 1] === delim) {
      out += delim === '\n' ? '\\n' : delim;
      i += 2;
    } else if (s[i] === '\\' && i + 1 < s.length) {
      out += s[i] + s[i + 1];
      i += 2;
    } else out += s[i++];
  }
  if (i >= s.length) throw new Error('unterminated');
  return [out, i + 1];
}

/**
 * GNU a/i/c text: blanks skipped, one leading backslash dropped (keeping what follows), escapes processed. The
 * trace stores a multi-line text typed with backslash-newlines as one line, each line break a space: a text with
 * no `\n` whose words are parted by 5 or more spaces (an indented next line) is split there again, taking the
 * indentation as a multiple of 4 and the spaces before it as line breaks (more than one: empty lines between).
 */
function sedText(s, i) {
  while (s[i] === ' ' || s[i] === '\t') i++;
  if (s[i] === '\\') {
    i++;
    if (s[i] === '\n') i++;
  }
  const raw = s.slice(i).split('\n')[0];
  if (!raw.includes('\\n') && /\S {5,}\S/.test(raw)) {
    const split = raw.replace(/(?<=\S) {5,}(?=\S)/g, (run) => {
      const breaks = ((run.length - 1) % 4) + 1;
      return '\\\n'.repeat(breaks) + ' '.repeat(run.length - breaks);
    });
    s = s.slice(0, i) + split + s.slice(i + raw.length);
  }
  let text = '';
  while (i < s.length && s[i] !== '\n') {
    if (s[i] === '\\' && i + 1 < s.length) {
      const n = s[i + 1];
      text += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      i += 2;
    } else text += s[i++];
  }
  return [text, i + 1];
}

function sedAddress(s, i, ere) {
  if (/\d/.test(s[i])) {
    const m = s.slice(i).match(/^\d+/)[0];
    return [{ line: Number(m) }, i + m.length];
  }
  if (s[i] === '$') return [{ last: true }, i + 1];
  if (s[i] === '/') {
    const [re, next] = untilDelim(s, i + 1, '/');
    let j = next;
    let flags = 's';
    if (s[j] === 'I') (flags += 'i'), j++;
    return [{ re: sedRegex(re, ere, flags) }, j];
  }
  return [undefined, i];
}

/** Parses a sed script into commands; throws on anything this small sed does not do. */
function parseSed(script, ere) {
  const cmds = [];
  let i = 0;
  while (i < script.length) {
    while (i < script.length && ' \t\n;'.includes(script[i])) i++;
    if (i >= script.length) break;
    const cmd = {};
    [cmd.a1, i] = sedAddress(script, i, ere);
    if (cmd.a1 && script[i] === ',') {
      if (script[i + 1] === '+') {
        const m = script.slice(i + 2).match(/^\d+/);
        if (!m) throw new Error('bad +N');
        cmd.a2 = { plus: Number(m[0]) };
        i += 2 + m[0].length;
      } else {
        [cmd.a2, i] = sedAddress(script, i + 1, ere);
        if (!cmd.a2) throw new Error('bad second address');
      }
    }
    while (script[i] === ' ') i++;
    if (script[i] === '!') (cmd.neg = true), i++;
    while (script[i] === ' ') i++;
    cmd.op = script[i++];
    if (cmd.op === 's') {
      const delim = script[i];
      let re;
      let repl;
      [re, i] = untilDelim(script, i + 1, delim);
      [repl, i] = untilDelim(script, i, delim);
      let flags = 's';
      let nth = 1;
      cmd.global = false;
      for (; i < script.length && !' \t\n;}'.includes(script[i]); i++) {
        const f = script[i];
        if (f === 'g') cmd.global = true;
        else if (f === 'I' || f === 'i') flags += 'i';
        else if (/\d/.test(f)) nth = Number(script.slice(i).match(/^\d+/)[0]), (i += String(nth).length - 1);
        else if (f !== 'p') throw new Error(`s flag ${f}`);
      }
      cmd.re = sedRegex(re, ere, `${flags}g`);
      cmd.nth = nth;
      cmd.repl = sedReplacement(repl);
    } else if ('aic'.includes(cmd.op)) {
      [cmd.text, i] = sedText(script, i);
    } else if (cmd.op === 'r') {
      const end = script.indexOf('\n', i);
      cmd.file = script.slice(i, end < 0 ? script.length : end).trim();
      i = end < 0 ? script.length : end + 1;
    } else if (cmd.op !== 'd') throw new Error(`command ${cmd.op}`);
    cmds.push(cmd);
  }
  if (!cmds.length) throw new Error('empty script');
  return cmds;
}

/** The script and options of a `sed -i …` command line; throws when it is not one this replay can run. */
function parseSedCommand(cmd) {
  const words = shellWords(cmd);
  if (!words || words[0] !== 'sed') throw new Error('not a plain sed command');
  const scripts = [];
  let ere = false;
  let inPlace = false;
  const rest = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === '-e' || w === '--expression') scripts.push(words[++i]);
    else if (w === '-E' || w === '-r' || w === '--regexp-extended') ere = true;
    else if (w.startsWith('-i') || w.startsWith('--in-place')) inPlace = true;
    else if (w.startsWith('-') && w.length > 1) {
      for (const f of w.slice(1)) {
        if (f === 'E' || f === 'r') ere = true;
        else if (f === 'i') inPlace = true;
        else throw new Error(`option -${f}`);
      }
    } else rest.push(w);
  }
  if (!inPlace) throw new Error('not in place');
  if (!scripts.length) scripts.push(rest.shift());
  if (scripts[0] === undefined) throw new Error('no script');
  return parseSed(scripts.join('\n'), ere);
}

/** Whether a command's address selects line n (range state lives on the command); sets cmd.rangeEnd. */
function sedSelects(cmd, n, ps, total) {
  const hit = (a) => (a.line !== undefined ? n === a.line : a.last ? n === total : a.re.test(ps));
  let selected;
  cmd.rangeEnd = true;
  if (!cmd.a1) selected = true;
  else if (!cmd.a2) selected = hit(cmd.a1);
  else if (cmd.active) {
    selected = true;
    const a2 = cmd.a2;
    const ends = a2.line !== undefined ? n >= a2.line : a2.last ? n === total : a2.plus !== undefined ? n >= cmd.until : a2.re.test(ps);
    cmd.active = !ends;
    cmd.rangeEnd = ends;
  } else if (hit(cmd.a1)) {
    selected = true;
    const a2 = cmd.a2;
    const ends = a2.line !== undefined ? a2.line <= n : a2.last ? n === total : a2.plus !== undefined ? a2.plus === 0 : false;
    if (a2.plus !== undefined) cmd.until = n + a2.plus;
    cmd.active = !ends;
    cmd.rangeEnd = ends;
  } else selected = false;
  return cmd.neg ? !selected : selected;
}

/** Runs parsed commands over a file's lines ({ t, bp, bk }); lines whose text is kept keep their identity. */
function runSed(cmds, lines, readFile) {
  for (const cmd of cmds) cmd.active = false;
  const out = [];
  const total = lines.length;
  const textLines = (text) => text.split('\n').map((t) => ({ t }));
  for (let n = 1; n <= total; n++) {
    const orig = lines[n - 1];
    let ps = orig.t;
    let deleted = false;
    const after = [];
    for (const cmd of cmds) {
      if (!sedSelects(cmd, n, ps, total)) continue;
      if (cmd.op === 's') {
        let count = 0;
        ps = ps.replace(cmd.re, (...args) => {
          count++;
          const groups = args.slice(0, args.findIndex((a) => typeof a === 'number'));
          return count === cmd.nth || (cmd.global && count > cmd.nth) ? cmd.repl(groups) : args[0];
        });
      } else if (cmd.op === 'd') {
        deleted = true;
        break;
      } else if (cmd.op === 'a') after.push(...textLines(cmd.text));
      else if (cmd.op === 'i') out.push(...textLines(cmd.text));
      else if (cmd.op === 'r') after.push(...(readFile(cmd.file) ?? []).map((t) => ({ t })));
      else if (cmd.op === 'c') {
        if (cmd.rangeEnd || cmd.neg) out.push(...textLines(cmd.text));
        deleted = true;
        break;
      }
    }
    if (!deleted) out.push(...(ps === orig.t ? [orig] : textLines(ps)));
    out.push(...after);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ trace

function loadTrace(dir) {
  const rows = fs.readFileSync(path.join(dir, 'sample_steps.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const byTraj = new Map();
  for (const row of rows) {
    if (!byTraj.has(row.trajectory_id)) byTraj.set(row.trajectory_id, []);
    byTraj.get(row.trajectory_id).push(row);
  }
  const trajectories = [];
  for (const [id, steps] of byTraj) {
    steps.sort((a, b) => a.step - b.step || a.sub - b.sub);
    const byStep = new Map();
    for (const s of steps) byStep.set(s.step, [...(byStep.get(s.step) ?? []), s]);
    for (const s of steps) {
      if (s.tool === 'read') s.attributable = attributable(s, byStep.get(s.step));
      // The exit status is the step's: it tells that a change failed only when the change was the whole step.
      else if (s.tool !== 'shell') s.failed = s.returncode !== 0 && byStep.get(s.step).length === 1;
    }
    trajectories.push({ id, repo: steps[0].repo.split('/')[1], steps });
  }
  return { rows, trajectories };
}

/** Pipeline stages of a command line (unquoted `|`, not `||`). */
function stages(cmd) {
  let n = 1;
  let quote = null;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '|' && cmd[i + 1] !== '|' && cmd[i - 1] !== '|') n++;
  }
  return n;
}

/**
 * A read's output is the file's text only when nothing else in its step printed anything, and no filter the
 * trace does not count as part of the read (`| grep …`, `| cat -A`) stood between the file and the agent.
 */
function attributable(read, stepRows) {
  if (read.output === null || read.returncode !== 0) return false;
  if (stages(read.cmd) > read.via.split('|').length) return false;
  return stepRows.every((s) => s === read || ['edit', 'write', 'create'].includes(s.tool) || (s.tool === 'shell' && ['delete', 'move', 'copy'].includes(s.kind)));
}

/** The trace's path is a piece of a command substitution (`head $(which x)` gave "$(which" and "x)"). */
const substituted = (read) => /\$\(|`/.test(read.cmd) && /[$()`]/.test(read.path);

/** Output text as lines (the `nl -ba` numbers taken off) and whether it ended with a newline. */
function outputLines(read) {
  const text = read.output;
  const eol = text.endsWith('\n');
  const raw = text === '' ? [] : (eol ? text.slice(0, -1) : text).split('\n');
  if (!read.via.startsWith('nl')) return { lines: raw.map((t) => ({ t })), eol };
  return {
    lines: raw.map((l) => {
      const m = l.match(/^ *(\d+)\t/);
      return m ? { n: Number(m[1]), t: l.slice(m[0].length) } : { t: l };
    }),
    eol,
  };
}

/**
 * What a read step asks for, as guard calls: `full`, `range` [from, to], `tail` N lines, or `pattern` (sed's
 * /re/,/re/p: placed where its first line is). Each with the lines the agent was shown (null when unknown).
 */
function readSegments(read) {
  const out = read.output !== null && read.attributable ? outputLines(read) : null;
  if (read.full && !read.range) return [{ kind: 'full', lines: out?.lines ?? null, eol: out?.eol }];
  if (!read.range) return [{ kind: 'pattern', spec: read.range_spec, lines: out?.lines ?? null, eol: out?.eol }];
  if (read.range.length === 1 && typeof read.range[0][0] === 'string') {
    return [{ kind: 'tail', count: Math.abs(Number(read.range[0][0])), lines: out?.lines ?? null, eol: out?.eol }];
  }
  const segments = read.range.map(([from, to]) => ({ kind: 'range', from, to, lines: out ? [] : null, eol: out?.eol }));
  if (!out) return segments;
  const numbered = out.lines.length > 0 && out.lines.every((l) => l.n !== undefined);
  let k = 0;
  for (const seg of segments) {
    if (numbered) seg.lines = out.lines.filter((l) => l.n >= seg.from && l.n <= seg.to);
    else while (k < out.lines.length && seg.lines.length < seg.to - seg.from + 1) seg.lines.push(out.lines[k++]);
    const contiguous = !numbered || seg.lines.every((l, j) => l.n === seg.from + j);
    if (seg.lines.length < seg.to - seg.from + 1 && contiguous) seg.eofAt = seg.from - 1 + seg.lines.length;
  }
  return segments;
}

// ---------------------------------------------------------------------------------------------- replay

/** Deterministic filler for a line no read shows: line k, about `width` characters. */
function filler(tag, k, width) {
  const head = `# ${tag} ${k} `;
  return head.length >= width ? head.trimEnd() : head + '~'.repeat(width - head.length);
}

/** The trace's path inside the temp repo folder: absolute ones (/tmp/…) live under `_abs/`. */
const guardPath = (p) => (p.startsWith('/') ? path.posix.join('_abs', p) : p);

/**
 * One trajectory's files as lines { t: text, bp/bk: base path and line, while the line is one of the file as
 * the trajectory found it }. `base` (path → { known: Map<k, text>, len, exact, width }) persists across passes;
 * with `io` every change is written to disk and every read step goes through the guard.
 */
class Replay {
  constructor(traj, base, io) {
    Object.assign(this, { traj, base, io, files: new Map(), learned: 0, uncertain: new Set(), lastBlind: new Map(), appliedCmds: new Set() });
    this.stats = { editsApplied: 0, editsNoChange: 0, skipped: {}, outsideReads: 0, outsideLines: 0, forced: 0, mixedReads: 0, filteredReads: 0, fillerLines: 0 };
  }

  baseOf(p) {
    if (!this.base.has(p)) this.base.set(p, newBase(0, 40));
    return this.base.get(p);
  }

  baseLine(p, k) {
    const b = this.baseOf(p);
    return { t: b.known.get(k)?.t ?? filler('filler line', k, b.width), bp: p, bk: k };
  }

  /** The file as the trajectory found it (its base), created when first needed. */
  file(p) {
    if (!this.files.has(p)) {
      const b = this.baseOf(p);
      const lines = [];
      for (let k = 1; k <= b.len; k++) lines.push(this.baseLine(p, k));
      this.files.set(p, { lines, eol: b.eol });
    }
    return this.files.get(p);
  }

  text(p) {
    const f = this.files.get(p);
    return f.lines.map((l) => l.t).join('\n') + (f.eol && f.lines.length ? '\n' : '');
  }

  /** Appends lines up to `count`: further base lines when the file ends at its base's last line, else filler. */
  extend(p, count) {
    const f = this.file(p);
    const b = this.baseOf(p);
    while (f.lines.length < count) {
      const last = f.lines.at(-1);
      const atBaseEnd = (!last && b.len === 0) || (last && last.bp === p && last.bk === b.len);
      if (atBaseEnd && !b.exact) {
        b.len++;
        this.learned++;
        f.lines.push(this.baseLine(p, b.len));
      } else {
        f.lines.push({ t: filler('filler (outside) line', f.lines.length + 1, b.width) });
        this.stats.fillerLines++;
      }
    }
  }

  /**
   * Makes line `idx` hold `text`. A line of the file as found learns it, unless an earlier read step showed that
   * line otherwise (then the file changed outside since): what the first read shows of a line is what it held.
   * Early passes may correct what they learned (edits placed by then-unknown lines shift what a read maps to);
   * later ones only learn unknown lines, so the passes settle.
   */
  put(p, idx, text) {
    const f = this.files.get(p);
    const cur = f.lines[idx];
    if (cur.t === text) return 0;
    const known = cur.bp !== undefined ? this.baseOf(cur.bp).known.get(cur.bk) : undefined;
    if (cur.bp !== undefined && (!known || (this.relearn && known.at >= this.at))) {
      this.baseOf(cur.bp).known.set(cur.bk, { t: text, at: this.at });
      this.learned++;
      f.lines[idx] = { ...cur, t: text };
      return this.io ? 1 : 0; // the line always held this text (when the guard runs, it is news on disk: count it)
    }
    f.lines[idx] = { t: text };
    return 1;
  }

  /** The file ends after line `eofAt` (1-based count of lines). */
  endAt(p, eofAt, eol) {
    const f = this.files.get(p);
    let changed = 0;
    if (f.lines.length > eofAt) {
      changed += f.lines.length - eofAt;
      f.lines.length = eofAt;
    }
    const last = f.lines.at(-1);
    const b = this.baseOf(p);
    if (last && last.bp === p && (b.len !== last.bk || !b.exact || (eol !== undefined && b.eol !== eol))) {
      b.len = last.bk;
      b.exact = true;
      if (eol !== undefined) b.eol = eol;
      this.learned++;
    }
    if (eol !== undefined && f.eol !== eol) (f.eol = eol), changed++;
    return changed;
  }

  /** Whole-file output: common prefix and suffix kept, the middle aligned line by line. */
  revealWhole(p, lines, eol) {
    const f = this.file(p);
    const want = lines.map((l) => l.t);
    let pre = 0;
    while (pre < want.length && pre < f.lines.length && f.lines[pre].t === want[pre]) pre++;
    let suf = 0;
    while (suf < want.length - pre && suf < f.lines.length - pre && f.lines.at(-1 - suf).t === want.at(-1 - suf)) suf++;
    const mid = f.lines.slice(pre, f.lines.length - suf);
    const tail = f.lines.slice(f.lines.length - suf);
    f.lines.length = pre;
    f.lines.push(...mid.slice(0, want.length - pre - suf));
    let changed = Math.max(0, mid.length - (want.length - pre - suf));
    if (suf === 0) {
      this.extend(p, want.length);
    } else {
      while (f.lines.length < want.length - suf) f.lines.push({ t: '' }), changed++;
      f.lines.push(...tail);
    }
    for (let i = pre; i < want.length - suf; i++) changed += this.put(p, i, want[i]);
    return changed + this.endAt(p, want.length, eol);
  }

  revealAt(p, from, lines) {
    this.extend(p, from - 1 + lines.length);
    let changed = 0;
    lines.forEach((l, j) => (changed += this.put(p, from - 1 + j, l.t)));
    return changed;
  }

  /** Where sed's /start/,…p printed its first line: that line in the file, else after its last line. */
  locate(p, seg) {
    const f = this.file(p);
    const first = seg.lines?.[0]?.t;
    let idx = first === undefined ? -1 : f.lines.findIndex((l) => l.t === first);
    if (idx < 0) {
      try {
        const start = seg.spec.match(/^\/((?:\\.|[^/])*)\//)[1];
        const re = sedRegex(start, false, 's');
        idx = f.lines.findIndex((l) => re.test(l.t));
      } catch {
        idx = -1;
      }
    }
    return idx < 0 ? f.lines.length + 1 : idx + 1;
  }

  /** Brings the file to what one read step shows; returns the guard calls ({ offset, limit } or {}) to make. */
  prepareRead(read) {
    const p = read.path;
    const segments = readSegments(read);
    this.lastOutside = 0;
    if (read.returncode !== 0 || substituted(read)) {
      // The read failed or named no real file: nothing to rebuild; the guard is asked as the agent asked.
      return segments.map((seg) => this.callFor(p, seg, false));
    }
    if (read.output !== null && !read.attributable && stages(read.cmd) > read.via.split('|').length) {
      this.stats.filteredReads++; // the agent saw a filter's output: nothing to rebuild from it
    } else if (read.output !== null && !read.attributable) {
      // The step's output mixes other commands' output with the file: take all of it (an upper bound).
      this.stats.mixedReads++;
      const changed = this.revealWhole(p, outputLines(read).lines, read.output.endsWith('\n'));
      this.countOutside(changed);
      this.write(p);
      return segments.map((seg) => this.callFor(p, seg, true));
    }
    this.file(p);
    let changed = 0;
    for (const seg of segments) changed += this.revealSegment(p, read, seg);
    this.countOutside(changed);
    this.write(p);
    if (read.output === null) this.blindRead(p, read);
    if (segments.length === 1 && segments[0].kind === 'full' && segments[0].lines) this.uncertain.delete(p);
    return segments.map((seg) => this.callFor(p, seg, true));
  }

  revealSegment(p, read, seg) {
    if (seg.lines === null) {
      if (seg.kind === 'range') this.extend(p, seg.to);
      else if (seg.kind === 'full' && read.output_truncated) this.extendChars(p, read.via.startsWith('nl') ? 7 : 0);
      return 0;
    }
    if (seg.kind === 'full') return this.revealWhole(p, seg.lines, seg.eol);
    if (seg.kind === 'tail') {
      const f = this.file(p);
      return this.revealAt(p, Math.max(1, f.lines.length - seg.lines.length + 1), seg.lines) + this.endAt(p, Math.max(f.lines.length, seg.lines.length), seg.eol);
    }
    if (seg.kind === 'pattern') return this.revealAt(p, this.locate(p, seg), seg.lines);
    let changed = this.revealAt(p, seg.from, seg.lines);
    if (seg.eofAt !== undefined) changed += this.endAt(p, seg.eofAt, seg.lines.length ? seg.eol : undefined);
    return changed;
  }

  /** A whole-file read the agent saw cut (more than 10,000 characters): the file is at least that long. */
  extendChars(p, perLine) {
    const f = this.file(p);
    let chars = f.lines.reduce((n, l) => n + l.t.length + 1 + perLine, 0);
    while (chars <= AGENT_OUTPUT_CAP) {
      this.extend(p, f.lines.length + 1);
      chars += f.lines.at(-1).t.length + 1 + perLine;
    }
  }

  /** A read whose text the trace lacks: if its output differs from the last such read of the file while the
   *  file here did not change since, the file changed in lines the trace does not show: change one. */
  blindRead(p, read) {
    const key = `${p}\u0000${read.via}\u0000${JSON.stringify(read.range ?? null)}`;
    const prev = this.lastBlind.get(key);
    const now = this.text(p);
    if (prev && prev.sha !== read.output_sha256 && prev.text === now) {
      const f = this.files.get(p);
      const idx = f.lines.length >> 1;
      if (f.lines.length) f.lines[idx] = { t: `${f.lines[idx].t}  # changed: the trace shows a different output here` };
      else f.lines.push({ t: '# changed: the trace shows a different output here' });
      this.stats.forced++;
      this.write(p);
    }
    this.lastBlind.set(key, { sha: read.output_sha256, text: this.text(p) });
  }

  countOutside(changed) {
    this.lastOutside = changed;
    if (!changed) return;
    this.stats.outsideReads++;
    this.stats.outsideLines += changed;
  }

  callFor(p, seg, exists) {
    if (seg.kind === 'full' || !exists || !this.files.has(p)) return seg.kind === 'full' ? {} : { offset: seg.from ?? 1, limit: seg.to ? seg.to - seg.from + 1 : seg.count ?? 1 };
    const total = this.files.get(p).lines.length;
    if (seg.kind === 'range') return { offset: seg.from, limit: seg.to - seg.from + 1 };
    if (seg.kind === 'tail') return { offset: Math.max(1, total - seg.count + 1), limit: seg.count };
    return { offset: this.locate(p, seg), limit: Math.max(1, seg.lines?.length ?? 1) };
  }

  skip(p, reason) {
    this.stats.skipped[reason] = (this.stats.skipped[reason] ?? 0) + 1;
    if (p) this.uncertain.add(p);
  }

  /** Replaces a file's lines, counting whether anything changed. */
  setLines(p, lines, eol) {
    const before = this.files.has(p) ? this.text(p) : null;
    this.files.set(p, { lines, eol });
    const changed = before !== this.text(p);
    if (changed) this.stats.editsApplied++;
    else this.stats.editsNoChange++;
    this.write(p);
  }

  write(p) {
    if (!this.io) return;
    const abs = this.io.abs(p);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const text = this.text(p);
    if (!fs.existsSync(abs) || fs.readFileSync(abs, 'utf8') !== text) fs.writeFileSync(abs, text);
  }

  remove(p) {
    for (const q of [...this.files.keys()]) {
      if (q !== p && !q.startsWith(p.endsWith('/') ? p : `${p}/`)) continue;
      this.files.delete(q);
      if (this.io) fs.rmSync(this.io.abs(q), { force: true });
    }
  }
}

const linesOf = (text) => {
  const eol = text.endsWith('\n');
  return { lines: text === '' ? [] : (eol ? text.slice(0, -1) : text).split('\n').map((t) => ({ t })), eol };
};
const printfText = (s) => s.replace(/\\(n|t|\\)|%%/g, (m, c) => (m === '%%' ? '%' : c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));

/** The agent's change, applied to the file as its shell did (outside the guard). */
function applyChange(r, step) {
  const p = step.path;
  if (step.failed) return r.skip(null, 'failed in the trace (exit status)');
  if (step.tool === 'edit' && step.via === 'sed -i') {
    // The trace splits one sed at `;` inside its quotes into several steps with the same command: run it once.
    const key = `${step.step}\u0000${step.cmd}\u0000${p}`;
    if (r.appliedCmds.has(key)) return;
    r.appliedCmds.add(key);
    let cmds;
    try {
      cmds = parseSedCommand(step.cmd);
    } catch {
      // The trace keeps 300 characters of a command, and the whole script in `sed` (unquoted).
      try {
        if (!step.sed || step.op === 'other') throw new Error('no script');
        cmds = parseSed(step.sed, false);
      } catch {
        return r.skip(p, 'sed -i this replay cannot parse');
      }
    }
    const f = r.file(p);
    const readFile = (name) => {
      for (const q of [name, path.posix.join(path.posix.dirname(p), name)]) if (r.files.has(q)) return r.files.get(q).lines.map((l) => l.t);
      return undefined;
    };
    return r.setLines(p, runSed(cmds, f.lines, readFile), f.eol);
  }
  if (step.tool === 'edit' && step.via === '>> append') return appendText(r, p, step.new ?? '');
  if (step.tool === 'edit') return r.skip(p, `${(step.via ?? 'edit').replace(/^python script.*/, 'python script')} (not reproducible)`);
  // write / create
  const m = step.cmd.match(/^(head|tail) -n (\+?)(\d+) (\S+) (>>?) (\S+)$/);
  if (step.redirect_from && m) {
    const src = path.posix.normalize(path.posix.join(path.posix.dirname(p), path.posix.relative(path.posix.dirname(m[6]), m[4])));
    if (!r.files.has(src) && !r.base.has(src)) return r.skip(p, `${step.redirect_from} of a file not in the replay`);
    const lines = r.file(src).lines;
    const part = m[1] === 'head' ? lines.slice(0, Number(m[3])) : lines.slice(Number(m[3]) - 1);
    if (m[5] === '>>' && r.files.has(p)) return r.setLines(p, [...r.files.get(p).lines, ...part], true);
    return r.setLines(p, part, true);
  }
  if (step.redirect_from) return r.skip(p, `${step.redirect_from} output redirected (not reproducible)`);
  const content = step.cmd.startsWith('printf') ? printfText(step.new ?? '') : step.new ?? '';
  if (/\s>>\s*\S+\s*$/.test(step.cmd.split('\n')[0])) return appendText(r, p, content);
  const { lines, eol } = linesOf(content);
  r.uncertain.delete(p);
  return r.setLines(p, lines, eol);
}

function appendText(r, p, text) {
  const f = r.file(p);
  const before = r.text(p);
  return r.setLines(p, linesOf(before + text).lines.map((l, i) => (i < f.lines.length && f.lines[i].t === l.t ? f.lines[i] : l)), (before + text).endsWith('\n') || (text === '' && f.eol));
}

function applyShell(r, step) {
  const mods = step.modifies ?? [];
  if (step.kind === 'delete') for (const p of mods) r.remove(p.replace(/\/$/, ''));
  else if (step.kind === 'revert') {
    for (const p of mods) {
      if (!r.files.has(p) && !r.base.has(p)) continue;
      const b = r.baseOf(p);
      const lines = [];
      for (let k = 1; k <= b.len; k++) lines.push(r.baseLine(p, k));
      r.uncertain.delete(p);
      r.setLines(p, lines, true);
    }
  } else if (step.kind === 'move' || step.kind === 'copy') moveOrCopy(r, step);
  else if (/^touch\s/.test(step.cmd)) {
    for (const p of shellWords(step.cmd)?.slice(1) ?? []) if (!p.startsWith('-') && !r.files.has(p)) r.setLines(p, [], false);
  }
}

function moveOrCopy(r, step) {
  const words = (shellWords(step.cmd) ?? []).filter((w) => !w.startsWith('-'));
  if (words.length !== 3) return r.skip(null, `${step.kind} this replay cannot parse`);
  const [, srcArg, destArg] = words;
  let dest = step.modifies[0];
  const prefix = dest.endsWith(destArg) ? dest.slice(0, dest.length - destArg.length) : '';
  let src = path.posix.normalize(prefix + srcArg);
  if (step.kind === 'move' && step.modifies[1]) src = step.modifies[1];
  if (dest.endsWith('/') || [...r.files.keys()].some((q) => q.startsWith(`${dest}/`))) dest = path.posix.join(dest, path.posix.basename(src));
  if (!r.files.has(src) && !r.base.has(src)) return r.skip(dest, `${step.kind} of a file not in the replay`);
  const f = r.file(src);
  if (step.kind === 'move') r.remove(src);
  if (r.uncertain.has(src)) r.uncertain.add(dest);
  r.setLines(dest, f.lines.map((l) => ({ ...l })), f.eol);
}

// ------------------------------------------------------------------------------------------------- guard

/** Why the trace explains a refusal, or undefined when it does not. */
function explained(read, call, res, r) {
  if (read.returncode !== 0 && res.code === 'FILE_NOT_FOUND') return 'the trace shows the command failing';
  if (substituted(read) && ['FILE_NOT_FOUND', 'PATH_INVALID'].includes(res.code)) return 'the path is a shell substitution';
  const lines = r.files.get(read.path)?.lines.length ?? 0;
  if (res.code === 'INVALID_INPUT' && call.offset > lines && (read.output === '' || read.returncode !== 0)) return 'the trace shows no lines there (past the end)';
  return undefined;
}

async function replayTrajectory(traj, base, io, cfgSessions, record, problems, relearn = false) {
  const r = new Replay(traj, base, io);
  r.relearn = relearn;
  for (const [at, step] of traj.steps.entries()) {
    r.at = at;
    if (step.tool === 'read') {
      const calls = r.prepareRead(step);
      if (io) {
        io.readSteps++;
        for (const call of calls) await guardRead(r, step, call, cfgSessions, record, problems);
      }
    } else if (step.tool === 'shell') applyShell(r, step);
    else applyChange(r, step);
  }
  return r;
}

async function guardRead(r, step, call, cfgSessions, record, problems) {
  for (const [ci, { guarded, baseline }] of cfgSessions.entries()) {
    const base = await baseline.read(guardPath(step.path), call);
    const res = await guarded.read(guardPath(step.path), call);
    const where = `${step.trajectory_id} step ${step.step}.${step.sub} ${step.cmd.slice(0, 80)}`;
    if (!res.ok || !base.ok) {
      const code = res.ok ? base.code : res.code;
      const why = !res.ok && !base.ok && res.code === base.code ? explained(step, call, res, r) : undefined;
      if (LIST && ci === 0) console.log(`${where.padEnd(110)} ${JSON.stringify(call).padEnd(28)} refused ${code}${why ? ` (${why})` : ''}`);
      if (!why) problems.push(`${where}: refused ${code}${res.ok !== base.ok ? ' (only one session)' : ''}: ${(res.ok ? base.message : res.message).slice(0, 160)}`);
      record.push({ ci, repo: r.traj.repo, kind: 'refused', code, why });
      continue;
    }
    if (base.kind !== 'content') problems.push(`${where}: the no-dedup session answered ${base.kind}`);
    record.push({ ci, repo: r.traj.repo, kind: res.kind, chars: res.text.length, baseline: base.text.length, uncertain: r.uncertain.has(step.path) });
    if (LIST && ci === 0) console.log(`${where.padEnd(110)} ${JSON.stringify(call).padEnd(28)} outside ${String(r.lastOutside).padStart(4)}  ${res.kind.padEnd(9)} ${String(res.text.length).padStart(6)} / ${base.text.length}${r.uncertain.has(step.path) ? ' (uncertain)' : ''}`);
  }
}

// ------------------------------------------------------------------------------------------------ report

const num = (n) => Math.round(n).toLocaleString('en-US');
const pct = (n, of) => (of ? `${((100 * n) / of).toFixed(1)}%` : '–');

function table(rows, headers) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const fmt = (r) => r.map((c, i) => (i === 0 ? String(c ?? '').padEnd(widths[i]) : String(c ?? '').padStart(widths[i]))).join('  ');
  return [fmt(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

function summarize(records) {
  const s = { calls: 0, kinds: {}, baseline: 0, returned: 0, savedPlaceholder: 0, savedDelta: 0, savedOther: 0, refused: 0, uncertainSaved: 0, longer: 0, longerCost: 0 };
  for (const rec of records) {
    s.calls++;
    s.kinds[rec.kind] = (s.kinds[rec.kind] ?? 0) + 1;
    if (rec.kind === 'refused') {
      s.refused++;
      continue;
    }
    s.baseline += rec.baseline;
    s.returned += rec.chars;
    const saved = rec.baseline - rec.chars;
    if (rec.kind === 'unchanged') s.savedPlaceholder += saved;
    else if (rec.kind === 'content') s.savedOther += saved; // header digits only
    else s.savedDelta += saved; // 'delta' and any kind added later
    if (rec.kind !== 'content' && rec.uncertain) s.uncertainSaved += saved;
    if (rec.kind !== 'content' && saved < 0) (s.longer += 1), (s.longerCost -= saved);
  }
  return s;
}

function printConfig(cfg, ci, records, repos) {
  const rows = [];
  const kindsSeen = new Set(['content', 'unchanged', 'delta']);
  for (const rec of records) if (rec.ci === ci && rec.kind !== 'refused') kindsSeen.add(rec.kind);
  const otherKinds = [...kindsSeen].filter((k) => !['content', 'unchanged', 'delta'].includes(k));
  const groups = [['all', records.filter((x) => x.ci === ci)], ...repos.map((repo) => [repo, records.filter((x) => x.ci === ci && x.repo === repo)])];
  for (const [name, recs] of groups) {
    const s = summarize(recs);
    rows.push([
      name, num(s.calls), num(s.kinds.content ?? 0), num(s.kinds.unchanged ?? 0), num(s.kinds.delta ?? 0), ...otherKinds.map((k) => num(s.kinds[k] ?? 0)), num(s.refused),
      num(s.baseline), `${num(s.returned)} (${pct(s.returned, s.baseline)})`, `${num(s.savedPlaceholder)} (${pct(s.savedPlaceholder, s.baseline)})`, `${num(s.savedDelta)} (${pct(s.savedDelta, s.baseline)})`,
      `${num(s.baseline - s.returned)} (${pct(s.baseline - s.returned, s.baseline)})`,
    ]);
  }
  console.log(`\n${cfg.name}`);
  console.log(table(rows, ['repo', 'reads', 'content', 'unchanged', 'delta', ...otherKinds, 'refused', 'no-guard chars', 'returned chars', 'saved by placeholders', 'saved by deltas', 'saved in all']));
  return summarize(records.filter((x) => x.ci === ci));
}

// -------------------------------------------------------------------------------------------------- main

async function main() {
  const tracesDir = path.resolve(ARGS.find((a) => !a.startsWith('--')) ?? path.join(root, '..', 'shared', 'traces'));
  if (!fs.existsSync(path.join(tracesDir, 'sample_steps.jsonl'))) {
    console.log(`traces not found at ${tracesDir}, skipped`);
    return 0;
  }
  const started = Date.now();
  const { createGuard } = require(path.join(root, 'dist/core.js'));
  const { rows, trajectories } = loadTrace(tracesDir);
  const traceReads = rows.filter((s) => s.tool === 'read').length;
  const repos = [...new Set(trajectories.map((t) => t.repo))].sort();

  // Model-only passes: learn each file's base lines from every read, until a pass learns nothing new.
  const bases = new Map(trajectories.map((t) => [t.id, initialBase(t)]));
  let passes = 0;
  for (let learned = 1; learned && passes < MAX_PASSES; passes++) {
    learned = 0;
    for (const t of trajectories) learned += (await replayTrajectory(t, bases.get(t.id), null, [], [], [], passes < RELEARN_PASSES)).learned;
  }

  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-replay-')));
  const records = [];
  const problems = [];
  const totals = { editsApplied: 0, editsNoChange: 0, skipped: {}, outsideReads: 0, outsideLines: 0, forced: 0, mixedReads: 0, filteredReads: 0, fillerLines: 0, learnedLate: 0, files: 0, readSteps: 0 };
  try {
    for (const t of trajectories) {
      const repoDir = path.join(tmp, t.id, 'repo');
      fs.mkdirSync(repoDir, { recursive: true });
      const io = { readSteps: 0, abs: (p) => path.join(repoDir, guardPath(p)) };
      const guard = createGuard({ roots: [repoDir] });
      const cfgSessions = CONFIGS.map((cfg, ci) => ({
        guarded: guard.session(`replay-${ci}`, { ...cfg.options }),
        baseline: guard.session(`baseline-${ci}`, { ...cfg.options, dedup: false }),
      }));
      const r = await replayTrajectory(t, bases.get(t.id), io, cfgSessions, records, problems);
      guard.dispose();
      totals.readSteps += io.readSteps;
      for (const k of ['editsApplied', 'editsNoChange', 'outsideReads', 'outsideLines', 'forced', 'mixedReads', 'filteredReads', 'fillerLines']) totals[k] += r.stats[k];
      for (const [k, v] of Object.entries(r.stats.skipped)) totals.skipped[k] = (totals.skipped[k] ?? 0) + v;
      totals.learnedLate += r.learned;
      totals.files += r.files.size;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const readChars = rows.filter((s) => s.tool === 'read').reduce((n, s) => n + (s.output_chars ?? 0), 0);
  console.log(`trajectory replay · ${trajectories.length} trajectories (${repos.map((repo) => `${trajectories.filter((t) => t.repo === repo).length} ${repo}`).join(', ')}) · ${traceReads} read steps → ${num(records.length / CONFIGS.length)} guarded reads · traces: ${tracesDir}`);
  console.log(`each read twice per configuration: the guarded session (dedup on) and a session with dedup: false (the no-guard baseline: the full content result). Characters are result text lengths.`);
  const summaries = CONFIGS.map((cfg, ci) => printConfig(cfg, ci, records, repos));
  console.log(`\nsaved in all = no-guard − returned: placeholders + deltas (+ header digits: ${summaries.map((s) => num(s.savedOther)).join(' / ')}).`);
  console.log(`the agent itself saw ${num(readChars)} characters in these read steps (outputs over ${num(AGENT_OUTPUT_CAP)} characters cut to head and tail by its harness).`);
  const skipped = Object.entries(totals.skipped).map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
  console.log(`rebuilt: ${num(totals.files)} files; ${passes} model pass${passes === 1 ? '' : 'es'} to learn the lines reads show; agent changes applied outside the guard ${num(totals.editsApplied)} (${num(totals.editsNoChange)} changed nothing); skipped: ${skipped}.`);
  console.log(`outside changes before reads: ${num(totals.outsideReads)} reads found ${num(totals.outsideLines)} lines differing from the agent's view and rewrote them; ${totals.forced} forced (output differs, text unknown); ${totals.mixedReads} reads whose step output mixes other commands (taken whole), ${totals.filteredReads} whose output went through a filter (not used); ${num(totals.fillerLines)} filler lines beyond a file's known end.`);
  const d = summaries[0];
  console.log(`placeholders or deltas longer than the content they stand for (${CONFIGS[0].name}): ${d.longer}, ${num(d.longerCost)} characters more (small reads: a placeholder is ~380 characters).`);
  console.log(`savings on files after a change this replay could not reproduce (may not hold): ${summaries.map((s, i) => `${CONFIGS[i].name}: ${num(s.uncertainSaved)}`).join(', ')}. deterministic (no randomness); ${((Date.now() - started) / 1000).toFixed(1)} s.`);

  if (totals.learnedLate) console.log(`note: the file model did not settle in ${passes} passes; the guarded pass still learned ${totals.learnedLate} lines.`);
  const whys = {};
  for (const rec of records) if (rec.why && rec.ci === 0) whys[rec.why] = (whys[rec.why] ?? 0) + 1;
  if (Object.keys(whys).length) console.log(`refusals the trace explains (per configuration): ${Object.entries(whys).map(([k, v]) => `${v}× ${k}`).join(', ')}.`);
  if (totals.readSteps !== traceReads) problems.push(`replayed ${totals.readSteps} read steps, the trace has ${traceReads}`);
  if (problems.length) {
    console.error(`\nreplay sanity check failed (${problems.length}):\n${problems.slice(0, 40).map((p) => `  ${p}`).join('\n')}`);
    return 1;
  }
  console.log(`sanity: ${totals.readSteps} read steps replayed = ${traceReads} in the trace; every refusal explained by the trace.`);
  return 0;
}

const newBase = (len, width) => ({ known: new Map(), len, exact: false, eol: true, width });

/**
 * First guesses per file, refined by the passes: its length, the last line any read of it names (a file appended
 * to before any read still starts with its own lines), none for a file the agent created; the width of filler
 * lines, the mean length of the lines the trajectory's reads show of it.
 */
function initialBase(traj) {
  const base = new Map();
  const sums = new Map();
  const created = new Set(); // written whole before anything read or edited it: no file there before
  const touched = new Set();
  for (const s of traj.steps) {
    if (s.path && !touched.has(s.path) && ['write', 'create'].includes(s.tool) && !s.redirect_from && !/\s>>\s*\S+\s*$/.test(s.cmd.split('\n')[0])) created.add(s.path);
    if (s.path) touched.add(s.path);
    if (s.tool !== 'read' || !s.path) continue;
    const [n, c, last] = sums.get(s.path) ?? [0, 0, 0];
    const lines = s.attributable ? outputLines(s).lines : [];
    const named = Math.max(0, ...(s.range ?? []).map(([, to]) => (typeof to === 'number' ? to : 0)), ...lines.map((l) => l.n ?? 0));
    sums.set(s.path, [n + lines.length, c + lines.reduce((x, l) => x + l.t.length, 0), Math.max(last, named, s.full && !s.range ? lines.length : 0)]);
  }
  for (const [p, [n, c, last]] of sums) base.set(p, newBase(created.has(p) ? 0 : last, Math.min(100, Math.max(16, n ? Math.round(c / n) : 40))));
  for (const p of created) Object.assign(base.get(p) ?? base.set(p, newBase(0, 40)).get(p), { exact: true });
  return base;
}

process.exitCode = await main();
