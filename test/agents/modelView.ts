/**
 * Questions about what the model was shown, asked of a run's recorded tool results (never of ReadGate's own
 * return values): was a result a ReadGate "unchanged" placeholder, a refusal with a given code, and had the
 * model been shown a given text whole before a given call.
 */
import type { ToolResultRecord } from './modelServer';

const PLACEHOLDER = /: lines \d+–\d+ are unchanged since your read #\d+/;

export const isPlaceholder = (record: ToolResultRecord): boolean => PLACEHOLDER.test(record.result?.text ?? '');

/** The refusal code a result starts with (Claude Code may wrap an error result in a tag), if any. */
export function refusalCode(record: ToolResultRecord): string | undefined {
  return /^(?:<tool_use_error>)?(?:Error: )?([A-Z][A-Z_]+): /.exec(record.result?.text ?? '')?.[1];
}

/** Whether any result of the same conversation before `record` showed the model `text`. */
export function wasShownBefore(records: ToolResultRecord[], record: ToolResultRecord, text: string): boolean {
  const before = records.slice(0, records.indexOf(record));
  return before.some((earlier) => JSON.stringify(earlier.context) === JSON.stringify(record.context) && (earlier.result?.text ?? '').includes(text));
}

/** A short description of a result for assertion messages. */
export const describe = (record: ToolResultRecord | undefined): string =>
  record ? `${record.tool}(${JSON.stringify(record.input).slice(0, 120)}) in ${record.context.kind} → ${JSON.stringify((record.result?.text ?? '(nothing sent back)').slice(0, 300))}` : '(no such call)';
