/**
 * Codex's `config.toml` merged with ReadGate's server, as a pure function on the file's text: the
 * `[mcp_servers.readgate]` table gets the launch (`command`, `args`), a `tool_timeout_sec` that lets a call wait
 * through a review, and `default_tools_approval_mode = "approve"` (under `codex exec`, whose approval policy is
 * `never`, Codex otherwise runs only tools annotated read-only and answers every edit "MCP tool call requires
 * approval"). Only those keys' text changes, or the table is appended: the user's other tables, keys, comments
 * and order stay byte for byte. The result is parsed again and must say exactly the old document plus
 * ReadGate's keys, or nothing is written.
 */
import { isDeepStrictEqual } from 'util';
import { parse } from 'smol-toml';
import type { FileMerge, Launch } from './setupTarget';
import { appendTable, findTable, setKey, tomlValue } from './tomlText';

type Table = Record<string, unknown>;

/** Long enough for a person to review a change; a longer value of the user's stays. */
export const CODEX_TOOL_TIMEOUT_SECONDS = 600;
const TABLE = ['mcp_servers', 'readgate'] as const;

const describe = (key: string, value: string): string => `${key} = ${value}`;
const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The keys ReadGate's table needs, given what it holds now (undefined when there is no table). */
export function wantedKeys(current: Table | undefined, launch: Launch): [string, string | number | string[]][] {
  const timeout = current?.tool_timeout_sec;
  const keepTimeout = typeof timeout === 'number' && timeout >= CODEX_TOOL_TIMEOUT_SECONDS;
  return [
    ['command', 'node'],
    ['args', [launch.script, ...launch.args]],
    ['tool_timeout_sec', keepTimeout ? timeout : CODEX_TOOL_TIMEOUT_SECONDS],
    ['default_tools_approval_mode', 'approve'],
  ];
}

/** ReadGate's table as `setup codex` writes it into a file that has none (the Connect guide shows it too). */
export function codexServerTable(launch: Launch): string {
  return appendTable(
    '',
    TABLE.join('.'),
    wantedKeys(undefined, launch).map(([key, value]) => describe(key, tomlValue(value))),
  ).trimEnd();
}

type Parsed = { ok: true; value: Table } | { ok: false; problem: string };

function parseToml(text: string): Parsed {
  try {
    return { ok: true, value: structuredClone(parse(text)) as Table };
  } catch (error) {
    const { message, line, column } = error as Error & { line?: number; column?: number };
    const where = line === undefined ? '' : ` at line ${line}, column ${column}`;
    return { ok: false, problem: `${message.split('\n')[0].replace(/^Invalid TOML document: /, '')}${where}` };
  }
}

/** Why the parsed document has no place for ReadGate's table, or undefined. */
function shapeProblem(document: Table): string | undefined {
  const servers = document.mcp_servers;
  if (servers === undefined) return undefined;
  if (!isTable(servers)) return '"mcp_servers" is not a table';
  if (servers.readgate !== undefined && !isTable(servers.readgate)) return '"mcp_servers.readgate" is not a table';
  return undefined;
}

/** `existing`: the file's text (undefined when there is none). */
export function mergeCodexConfig(existing: string | undefined, launch: Launch): FileMerge {
  const text = existing ?? '';
  const parsed = parseToml(text);
  if (!parsed.ok) return { ok: false, problem: `is not valid TOML (${parsed.problem})` };
  const shape = shapeProblem(parsed.value);
  if (shape) return { ok: false, problem: `is not a Codex config this can merge: ${shape}` };
  const current = (parsed.value.mcp_servers as Table | undefined)?.readgate as Table | undefined;
  const wanted = wantedKeys(current, launch);
  const changed = wanted.filter(([key, value]) => !isDeepStrictEqual(current?.[key], value));
  const changes: string[] = [];
  let merged = text;
  if (current === undefined) {
    merged = appendTable(
      text,
      TABLE.join('.'),
      wanted.map(([key, value]) => describe(key, tomlValue(value))),
    );
    changes.push(`added the [${TABLE.join('.')}] table`, ...wanted.map(([key, value]) => `  ${describe(key, tomlValue(value))}`));
  } else {
    for (const [key, value] of changed) {
      const table = findTable(merged, TABLE);
      if (!table) {
        return {
          ok: false,
          problem: `is not a Codex config this can merge: ReadGate's server is written as an inline table or with dotted keys; make it a [${TABLE.join('.')}] table, or remove it`,
        };
      }
      merged = setKey(merged, table, key, tomlValue(value));
      changes.push(
        `${key in current ? 'set' : 'added'} ${describe(key, tomlValue(value))} in [${TABLE.join('.')}]${key in current ? ` (was ${JSON.stringify(current[key])})` : ''}`,
      );
    }
  }
  const check = verify(merged, parsed.value, wanted);
  if (check) return { ok: false, problem: `cannot take a [${TABLE.join('.')}] table as it is written (${check})` };
  return { ok: true, text: merged, changes, notes: [] };
}

/** Why `merged` does not say exactly `before` with ReadGate's keys set, or undefined. */
function verify(merged: string, before: Table, wanted: readonly [string, unknown][]): string | undefined {
  const after = parseToml(merged);
  if (!after.ok) return after.problem;
  const expected = structuredClone(before);
  const servers = (expected.mcp_servers ??= {}) as Table;
  const readgate = (servers.readgate ??= {}) as Table;
  for (const [key, value] of wanted) readgate[key] = value;
  return isDeepStrictEqual(after.value, expected) ? undefined : 'the edited text reads differently';
}
