/**
 * Measuring what an agent CLI shows the model of a readgate_read result: whole (exactly ReadGate's text) or
 * not, and a bisection, within one conversation, for the largest file whose read is still shown whole.
 * Each probe reads a new file, so ReadGate's "unchanged" placeholder never answers a probe.
 * Claude Code and Qwen Code both replace a large result by a `<persisted-output>` preview.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { makeTempDir } from '../unit/helpers/tempDir';
import type { ToolResultSeen } from './conversation';
import type { AgentCli } from './install';
import { readgateText } from './readgateReference';
import { readgateServer, runAgent } from './runAgent';
import { call, say, type Script, steps } from './script';
import { fileOfSize } from './textFiles';

const PROMPT = 'Read the files I point you to.';

/**
 * These tests measure the client, so ReadGate must return more than any client shows: its budget for the
 * client is lifted above its byte cap (100 KB), as a user can with --max-read-chars.
 */
const UNBOUNDED = { maxChars: 500_000, reason: 'the limit the user set for this server', howToRaise: "the server's --max-read-chars option" };
const unbounded = (root: string) => ({ readgate: readgateServer(root, ['--max-read-chars', String(UNBOUNDED.maxChars)]) });

export interface Shown {
  /** Characters of ReadGate's result text. */
  resultChars: number;
  /** Characters of the JSON of the MCP content (`[{ type: 'text', text }]`, two-space indented). */
  contentJsonChars: number;
  /** Characters of what the model was shown. */
  shownChars: number;
  whole: boolean;
  /** What the model got: the whole result, Claude Code's file preview, its token-limit notice, or something else. */
  as: 'whole' | 'preview' | 'tokenLimit' | 'missing' | 'other';
  /** The first line of what was shown, when it was not the whole result. */
  instead?: string;
}

function kindOf(reference: string, seen: ToolResultSeen | undefined): Shown['as'] {
  if (!seen) return 'missing';
  if (seen.text === reference) return 'whole';
  if (seen.text.startsWith('<persisted-output>')) return 'preview';
  if (/exceeds maximum allowed tokens/.test(seen.text.split('\n')[0])) return 'tokenLimit';
  return 'other';
}

export const contentJsonChars = (text: string): number => JSON.stringify([{ type: 'text', text }], null, 2).length;

export function compare(reference: string, seen: ToolResultSeen | undefined): Shown {
  const text = seen?.text ?? '';
  const as = kindOf(reference, seen);
  const whole = as === 'whole';
  return {
    resultChars: reference.length,
    contentJsonChars: contentJsonChars(reference),
    shownChars: text.length,
    whole,
    as,
    ...(whole ? {} : { instead: seen ? text.split('\n')[0].slice(0, 120) : '(no result was sent back)' }),
  };
}

export interface Probe extends Shown {
  fileChars: number;
}

export interface Bisection {
  script: Script;
  probes: Probe[];
  /** The largest probe that is `below` and the smallest that is not, once the script has finished. */
  bracket(): { below?: Probe; above?: Probe };
}

/**
 * Bisects the size (in characters) of a file of `width`-character lines between `low` (assumed `below`) and
 * `high` (assumed not) until they are one character apart; both ends are then checked by a probe of their own.
 * `below` defaults to "shown whole".
 */
export interface BisectOptions {
  width: number;
  /** Characters the lines are padded with (non-ASCII ones tell characters from bytes). */
  filler?: string;
  low: number;
  high: number;
  below?: (shown: Shown) => boolean;
}

export function bisectReads(root: string, { width, filler, low, high, below = (shown) => shown.whole }: BisectOptions): Bisection {
  const probes: Probe[] = [];
  let lo = low;
  let hi = high;
  let pending: { fileChars: number; reference: string } | undefined;
  const probe = async (fileChars: number) => {
    const file = path.join(root, `probe-${width}-${fileChars}.txt`);
    fs.writeFileSync(file, fileOfSize(fileChars, width, filler));
    pending = { fileChars, reference: await readgateText(root, file, {}, probes.length + 1, UNBOUNDED) };
    return call('readgate_read', { filePath: path.basename(file) });
  };
  const script: Script = async (turn) => {
    if (turn.context.kind !== 'main') return say('Done.');
    if (pending) {
      const shown = compare(pending.reference, turn.lastResults[0]);
      probes.push({ fileChars: pending.fileChars, ...shown });
      if (below(shown)) lo = Math.max(lo, pending.fileChars);
      else hi = Math.min(hi, pending.fileChars);
    }
    const tried = (chars: number): boolean => probes.some((p) => p.fileChars === chars);
    if (probes.length >= 40) return say('Done.');
    if (hi - lo > 1) return probe(Math.floor((lo + hi) / 2));
    if (!tried(lo)) return probe(lo);
    if (!tried(hi)) return probe(hi);
    pending = undefined;
    return say('Done.');
  };
  const bracket = () => ({
    below: probes.filter((p) => below(p)).sort((a, b) => b.fileChars - a.fileChars)[0],
    above: probes.filter((p) => !below(p)).sort((a, b) => a.fileChars - b.fileChars)[0],
  });
  return { script, probes, bracket };
}

/** Reads files giving results of about the given sizes (99-character lines) in one conversation. */
export async function readSizes(cli: AgentCli, sizes: number[], env: Record<string, string> = {}) {
  const root = makeTempDir('readgate-agents-');
  const files = sizes.map((size) => {
    const name = `size-${size}.txt`;
    fs.writeFileSync(path.join(root, name), fileOfSize(Math.round(size / 1.045), 99));
    return name;
  });
  const run = await runAgent({ cli, cwd: root, prompt: PROMPT, env, mcpServers: unbounded(root), script: steps([...files.map((filePath) => call('readgate_read', { filePath })), say('Done.')]) });
  assert.deepStrictEqual(run.scriptErrors, []);
  assert.strictEqual(run.exitCode, 0, run.stderr);
  return Promise.all(run.toolResults.map(async (record, i) => ({ target: sizes[i], ...compare(await readgateText(root, files[i], {}, i + 1, UNBOUNDED), record.result) })));
}

/** Bisects in one conversation per case; returns the bracket found for each. */
export async function bisect(
  cli: AgentCli,
  cases: Omit<BisectOptions, 'low' | 'high' | 'below'>[],
  range: Pick<BisectOptions, 'low' | 'high' | 'below'>,
  setup: { env?: Record<string, string>; settings?: Record<string, unknown> } = {},
) {
  const rows = [];
  for (const options of cases) {
    const root = makeTempDir('readgate-agents-');
    const bisection = bisectReads(root, { ...options, ...range });
    const run = await runAgent({ cli, cwd: root, prompt: PROMPT, mcpServers: unbounded(root), ...setup, script: bisection.script });
    assert.deepStrictEqual(run.scriptErrors, []);
    const { below, above } = bisection.bracket();
    assert.ok(below && above, `the bisection did not close in: ${JSON.stringify(bisection.probes)}`);
    rows.push({ ...options, below, above, probes: bisection.probes.length });
  }
  return rows;
}
