/**
 * Questions about what the model was shown, asked of a run's recorded tool results (never of ReadGate's own
 * return values): was a result a ReadGate "unchanged" placeholder, a refusal with a given code, and had the
 * model been shown a given text whole before a given call.
 */
import type { ToolResultRecord } from './modelServer';

const PLACEHOLDER = /: lines \d+-\d+ are unchanged since your read #\d+/;

export const isPlaceholder = (record: ToolResultRecord): boolean => PLACEHOLDER.test(record.result?.text ?? '');

/**
 * The refusal code a result starts with, if any. Claude Code passes an MCP error result's text as it is; Qwen
 * Code wraps it ("MCP tool '…' reported tool error for function call: … with response: [ …JSON… ]"), so
 * there the code is the start of the first text in that JSON.
 */
export function refusalCode(record: ToolResultRecord): string | undefined {
  const text = record.result?.text ?? '';
  const wrapped = /^MCP tool '[^']+' reported tool error .*?"text":"([A-Z][A-Z_]+): /s.exec(text);
  return wrapped?.[1] ?? /^([A-Z][A-Z_]+): /.exec(text)?.[1];
}

/** Whether any result of the same conversation before `record` showed the model `text`. */
export function wasShownBefore(records: ToolResultRecord[], record: ToolResultRecord, text: string): boolean {
  const before = records.slice(0, records.indexOf(record));
  return before.some((earlier) => JSON.stringify(earlier.context) === JSON.stringify(record.context) && (earlier.result?.text ?? '').includes(text));
}

/** A short description of a result for assertion messages. */
export const describeCall = (record: ToolResultRecord | undefined): string =>
  record ? `${record.tool}(${JSON.stringify(record.input).slice(0, 120)}) in ${record.context.kind} → ${JSON.stringify((record.result?.text ?? '(nothing sent back)').slice(0, 300))}` : '(no such call)';
