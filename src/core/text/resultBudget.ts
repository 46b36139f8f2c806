/**
 * A client's result budget turned into the caps a read and a diff obey (pure), so no line counts as seen that the
 * client cut from a long tool result (Claude Code keeps a preview past ~50,000 characters, Codex cuts MCP output
 * near 12 KB). The words of the cap and of how to raise it follow the budget when it is the budget that binds.
 */
import { Buffer } from 'node:buffer';
import { formatCount } from './formatCount';

/** A client's limit on one tool result. */
export interface ResultBudget {
  /**
   * The most one result may hold, at least 2,000. Counted in UTF-8 bytes, which are never fewer than its
   * characters, so the one figure serves clients that count characters and those that count bytes.
   */
  maxChars: number;
  /** Why, for the model: "Claude Code shows at most 50,000 characters of a tool result". */
  reason?: string;
  /** How the user can raise it, for refusals of lines too long for any read: "the --max-read-chars option". */
  howToRaise?: string;
}

/** The smallest budget honoured: below it not even a header, a note and one shortened line fit. */
export const MIN_BUDGET_CHARS = 2_000;

/** Room a read's header and notes may take besides its lines. */
const FRAME_CHARS = 1_500;

export interface ReadLimits {
  maxLines: number;
  maxBytes: number;
  maxLineLength: number;
  /** UTF-8 bytes (so characters too) the whole result may hold (header, lines and notes), when a budget applies. */
  maxChars?: number;
  /** Words for the cap that binds when it is the budget: "this client's 10,000-character result limit (…)". */
  capName?: string;
  /** How the user raises it, when it is the budget. */
  raise?: string;
}

/** "ask the user to raise …": the read cap's name on every surface (VS Code setting, library option). */
export const RAISE_READ_CAP = 'ask the user to raise the read byte cap (the readgate.read.maxBytes setting, or limits.maxBytes of the library)';

/**
 * The size a budget counts: UTF-8 bytes. Clients count characters (Claude Code, Gemini CLI) or bytes (Codex,
 * Copilot CLI); a text's UTF-8 bytes are never fewer than its UTF-16 characters, so one measure fits both.
 */
export function utf8Size(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function budgetChars(budget: ResultBudget | undefined): number | undefined {
  if (!budget || typeof budget.maxChars !== 'number' || !Number.isFinite(budget.maxChars)) return undefined;
  return Math.max(MIN_BUDGET_CHARS, Math.floor(budget.maxChars));
}

/**
 * The caps of a read within `budget` (the limits unchanged without one): the byte cap shrinks to the budget less
 * room for the header and notes, as a read that returned more than its client shows would count unseen lines seen.
 */
export function limitsWithin<L extends ReadLimits>(limits: L, budget: ResultBudget | undefined): L {
  const maxChars = budgetChars(budget);
  if (maxChars === undefined) return limits;
  const contentBytes = maxChars - Math.min(FRAME_CHARS, Math.floor(maxChars / 4));
  const binds = contentBytes < limits.maxBytes;
  const maxBytes = Math.min(limits.maxBytes, contentBytes);
  return {
    ...limits,
    maxBytes,
    // A shortened line (up to 4 UTF-8 bytes a character) must fit beside its neighbours.
    maxLineLength: Math.max(1, Math.min(limits.maxLineLength, Math.floor(maxBytes / 4))),
    maxChars,
    ...(binds
      ? {
          capName: `this client's ${formatCount(maxChars)}-character result limit${budget?.reason ? ` (${budget.reason})` : ''}`,
          raise: `ask the user to raise ${budget?.howToRaise ?? "this client's result limit"}`,
        }
      : {}),
  };
}

/** "the 100,000-byte read cap", or the budget's words when it binds. */
export function capWords(limits: ReadLimits): string {
  return limits.capName ?? `the ${formatCount(limits.maxBytes)}-byte read cap`;
}

export function raiseWords(limits: ReadLimits): string {
  return limits.raise ?? RAISE_READ_CAP;
}

const CUT_MARK = (lines: number, maxChars: number): string =>
  `[… ${lines} more line${lines === 1 ? '' : 's'} cut: a result holds at most ${formatCount(maxChars)} characters here]`;

/**
 * The last resort for a text that must fit `maxChars` but was not built to (a refusal quoting long lines):
 * lines are shortened and the text is cut at a line boundary, marked. Results that record what they showed
 * (reads, diffs) are sized when they are built, so this never cuts them.
 */
export function fitText(text: string, maxChars: number): string {
  if (utf8Size(text) <= maxChars) return text;
  const lines = text.split('\n');
  const longest = Math.max(200, Math.floor(maxChars / 16));
  const out: string[] = [];
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.length > longest) line = `${line.slice(0, longest)} … [line shortened: ${formatCount(line.length)} characters]`;
    const mark = CUT_MARK(lines.length - i, maxChars);
    const cost = utf8Size(line) + 1;
    if (size + cost + utf8Size(mark) > maxChars) {
      out.push(mark);
      break;
    }
    out.push(line);
    size += cost;
  }
  return out.join('\n');
}
