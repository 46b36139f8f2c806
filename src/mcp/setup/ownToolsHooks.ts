/**
 * The hooks file of an agent that keeps its own tools (`setup <agent> --own-tools`): ReadGate's hook before and
 * after the agent's file tools and on its context events, merged into a hooks object as Claude Code's and Codex's
 * take it (`{ hooks: { <Event>: [{ matcher?, hooks: [{ type: "command", command, timeout }] }] } }`). Pure; the
 * user's other hooks stay where they are, ReadGate's are updated in place, and running it again changes nothing.
 */
import * as fs from 'fs';
import * as path from 'path';
import { HOOK_TIMEOUT_SECONDS } from '../../hooks/hookProtocol';
import { shellWord } from '../shellWord';
import { hooksShapeProblem, placeHook, type WantedHook } from './claudeSettings';
import { parseSettingsText } from './settingsFile';
import type { FileMerge, Launch, SettingsMerge } from './setupTarget';

/** How a client names its tool events and counts a hook's timeout. */
export interface HookDialect {
  before: string;
  after: string;
  /** Gemini CLI counts hook timeouts in milliseconds. */
  milliseconds?: boolean;
}
const CLAUDE_LIKE: HookDialect = { before: 'PreToolUse', after: 'PostToolUse' };
/** A short timeout keeps a stuck hook from holding the agent up (as for ReadGate's other hooks). */
const SHORT_SECONDS = 10;

/** The hooks ReadGate needs for a client whose own tools it judges, by the tools' matcher (a regular expression). */
export function ownToolsHooks(client: string, matcher: string, contextEvents: readonly WantedHook[], dialect: HookDialect = CLAUDE_LIKE): WantedHook[] {
  const flags = `--own-tools --client ${client}`;
  const seconds = (value: number): number => (dialect.milliseconds ? value * 1000 : value);
  return [
    // A change may wait for the user's review: the hook ends that wait itself, before the client would.
    { event: dialect.before, matcher, flags, timeout: seconds(HOOK_TIMEOUT_SECONDS) },
    { event: dialect.after, matcher, flags, timeout: seconds(SHORT_SECONDS) },
    ...contextEvents.map((wanted) => ({ ...wanted, flags, timeout: seconds(SHORT_SECONDS) })),
  ];
}

/**
 * The hook's command: the agent hook beside the script that ran the set-up (agent-hook.js, the smallest script: the
 * hook runs before every tool call), else that script's own `hook`; with the headless server's roots and options,
 * so that with no window on the folder the hook starts the headless hook guard on the same folders.
 */
export function ownToolsHookCommand(launch: Launch): string {
  const agentHook = path.join(path.dirname(launch.script), 'agent-hook.js');
  const words = fs.existsSync(agentHook) ? [agentHook, ...launch.args] : [launch.script, 'hook', ...launch.args];
  return ['node', ...words.map((word) => (word === 'hook' ? word : shellWord(word)))].join(' ');
}

export function mergeOwnToolsHooks(existing: unknown, hookCommand: string, wanted: readonly WantedHook[]): SettingsMerge {
  const value = existing ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `it holds ${Array.isArray(value) ? 'a list' : 'a single value'}, not a JSON object` };
  }
  const problem = hooksShapeProblem((value as Record<string, unknown>).hooks, wanted);
  if (problem) return { ok: false, problem };
  const settings = structuredClone(value) as Record<string, unknown>;
  const hooks = (settings.hooks ??= {}) as Record<string, unknown>;
  const changes: string[] = [];
  for (const each of wanted) {
    const change = placeHook(hooks, each, hookCommand);
    if (change) changes.push(`${change} the ${each.event} hook`);
  }
  return { ok: true, settings, changes, notes: [] };
}

/** A target's `merge`: the file's text, parsed, merged and written back as JSON. */
export function ownToolsHooksText(wanted: readonly WantedHook[]): (text: string | undefined, launch: Launch) => FileMerge {
  return (text, launch) => {
    const read = parseSettingsText(text);
    if (!read.ok) return read;
    const merged = mergeOwnToolsHooks(read.value, ownToolsHookCommand(launch), wanted);
    if (!merged.ok) return { ok: false, problem: `is not a hooks file this can merge: ${merged.problem}` };
    return { ok: true, text: `${JSON.stringify(merged.settings, null, 2)}\n`, changes: merged.changes, notes: merged.notes };
  };
}
