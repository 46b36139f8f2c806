/**
 * Claude Code's project settings (`.claude/settings.json`) merged with what working through ReadGate needs, as a
 * pure function: ReadGate's tools allowed (Claude Code refuses every MCP call, reads too, until they are), its
 * own file-editing tools denied (Claude Code 2.1 has Edit, Write and NotebookEdit; MultiEdit is gone and a rule
 * naming an unknown tool only warns), and hooks that run ReadGate's `hook` command. Everything else the user
 * has stays where it is; ReadGate's own earlier hooks (`… mcp-bridge.js --forget`, `… mcp.js hook`) are updated
 * in place, so running it again changes nothing.
 */
import { HOOK_TIMEOUT_SECONDS as HOOK_TIMEOUT_SECONDS_FOR_REVIEW } from '../../hooks/hookProtocol';
import type { SettingsMerge } from './setupTarget';

type Json = Record<string, unknown>;

export const READGATE_RULE = 'mcp__readgate';
export const DENIED_TOOLS = ['Edit', 'Write', 'NotebookEdit'] as const;

/** A hook only tells ReadGate something small; a short timeout keeps a stuck one from holding up the agent. */
const HOOK_TIMEOUT_SECONDS = 10;

export interface WantedHook {
  event: string;
  matcher?: string;
  /** Appended to the hook command. */
  flags?: string;
  /** Seconds (default HOOK_TIMEOUT_SECONDS). */
  timeout?: number;
}

/** Which agent context a ReadGate call comes from, and when a conversation was compacted or cleared. */
export const WANTED_HOOKS: readonly WantedHook[] = [
  { event: 'PreToolUse', matcher: 'mcp__readgate__.*', flags: '--compaction-hooked' },
  { event: 'SubagentStop' },
  { event: 'PreCompact' },
  { event: 'SessionStart', matcher: 'compact|clear' },
];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((each) => typeof each === 'string');

/**
 * A command that runs ReadGate's bridge or headless server with `hook`, or with `--forget` as earlier guides set up,
 * or ReadGate's agent hook (`agent-hook.js`, an own-tools set-up's).
 */
export function isReadGateHookCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  if (/(?:^|[\s'"/\\])agent-hook\.js(?=['"\s]|$)/.test(command)) return true;
  const script = /(?:^|[\s'"/\\])mcp(?:-bridge)?\.js(?=['"\s]|$)/.exec(command);
  if (!script) return false;
  const words = command
    .slice(script.index + script[0].length)
    .split(/\s+/)
    .map((word) => word.replace(/^['"]|['"]$/g, ''));
  return words.includes('hook') || words.includes('--forget');
}

/**
 * With `--own-tools`: Claude Code keeps its own file tools, and the hook judges each call of them before it runs
 * and learns from it after; the agent-context events as above.
 */
export const OWN_TOOLS_MATCHER = 'Read|Edit|Write|NotebookEdit';
const OWN_TOOLS_FLAGS = '--own-tools --client claude-code';
export const OWN_TOOLS_HOOKS: readonly WantedHook[] = [
  // A change may wait for the user's review: the hook ends that wait itself, before Claude Code would.
  { event: 'PreToolUse', matcher: OWN_TOOLS_MATCHER, flags: OWN_TOOLS_FLAGS, timeout: HOOK_TIMEOUT_SECONDS_FOR_REVIEW },
  { event: 'PostToolUse', matcher: OWN_TOOLS_MATCHER, flags: OWN_TOOLS_FLAGS },
  { event: 'SubagentStop', flags: OWN_TOOLS_FLAGS },
  { event: 'PreCompact', flags: OWN_TOOLS_FLAGS },
  { event: 'SessionStart', matcher: 'compact|clear', flags: OWN_TOOLS_FLAGS },
];

/** Why a hooks object (Claude Code's, Codex's hooks.json) is not what a merge of `wanted` can safely change. */
export function hooksShapeProblem(hooks: unknown, wantedHooks: readonly WantedHook[]): string | undefined {
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) return '"hooks" is not an object';
  for (const { event } of wantedHooks) {
    const groups = hooks[event];
    if (groups === undefined) continue;
    if (!Array.isArray(groups)) return `"hooks.${event}" is not a list`;
    for (const [i, group] of groups.entries()) {
      const where = `"hooks.${event}[${i}]"`;
      if (!isObject(group)) return `${where} is not an object`;
      if (group.matcher !== undefined && typeof group.matcher !== 'string') return `${where}.matcher is not a string`;
      if (!Array.isArray(group.hooks) || !group.hooks.every(isObject)) return `${where}.hooks is not a list of objects`;
    }
  }
  return undefined;
}

/** Why Claude Code's settings are not what this merge can safely change, or undefined. */
function shapeProblem(settings: unknown, wantedHooks: readonly WantedHook[] = WANTED_HOOKS): string | undefined {
  if (!isObject(settings)) return `it holds ${Array.isArray(settings) ? 'a list' : 'a single value'}, not a JSON object`;
  const { permissions, hooks } = settings;
  if (permissions !== undefined) {
    if (!isObject(permissions)) return '"permissions" is not an object';
    for (const key of ['allow', 'deny'] as const) {
      if (permissions[key] !== undefined && !isStringList(permissions[key])) return `"permissions.${key}" is not a list of strings`;
    }
  }
  return hooksShapeProblem(hooks, wantedHooks);
}

/** No matcher, an empty one and "*" all match every occurrence of the event. */
const sameMatcher = (a: unknown, b: string | undefined): boolean => (a === undefined || a === '' || a === '*' ? '' : a) === (b ?? '');

interface Group extends Json {
  matcher?: string;
  hooks: Json[];
}

function newGroup(matcher: string | undefined, hook: Json): Group {
  return { ...(matcher === undefined ? {} : { matcher }), hooks: [hook] };
}

/** Sets each field of `wanted` on `hook` (its other fields and their order kept); whether anything changed. */
function updateFields(hook: Json, wanted: Json): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(wanted)) {
    if (hook[key] === value) continue;
    hook[key] = value;
    changed = true;
  }
  return changed;
}

/** Puts ReadGate's hook for one event in place; 'added', 'updated', or undefined when it was already there. */
export function placeHook(hooks: Json, wanted: WantedHook, hookCommand: string): 'added' | 'updated' | undefined {
  const hook = { type: 'command', command: wanted.flags ? `${hookCommand} ${wanted.flags}` : hookCommand, timeout: wanted.timeout ?? HOOK_TIMEOUT_SECONDS };
  const groups = (hooks[wanted.event] ??= []) as Group[];
  const found = groups.flatMap((group) =>
    group.hooks.filter((each) => each.type === 'command' && isReadGateHookCommand(each.command)).map((each) => ({ group, hook: each })),
  );
  if (found.length === 0) return (void groups.push(newGroup(wanted.matcher, hook)), 'added');
  const [first, ...extra] = found;
  // Copies of ReadGate's hook would each run: one stays.
  for (const each of extra) each.group.hooks.splice(each.group.hooks.indexOf(each.hook), 1);
  let changed = updateFields(first.hook, hook) || extra.length > 0;
  if (!sameMatcher(first.group.matcher, wanted.matcher)) {
    changed = true;
    const onlyReadGate = first.group.hooks.every((each) => isReadGateHookCommand(each.command));
    if (onlyReadGate) {
      const { matcher: _old, ...rest } = first.group;
      groups[groups.indexOf(first.group)] = { ...(wanted.matcher === undefined ? {} : { matcher: wanted.matcher }), ...rest };
    } else {
      // The user's hooks in that group keep their matcher; ReadGate's moves to a group of its own.
      first.group.hooks.splice(first.group.hooks.indexOf(first.hook), 1);
      groups.push(newGroup(wanted.matcher, first.hook));
    }
  }
  const emptied = new Set(extra.map((each) => each.group).filter((group) => group.hooks.length === 0));
  for (let i = groups.length - 1; i >= 0; i--) if (emptied.has(groups[i])) groups.splice(i, 1);
  return changed ? 'updated' : undefined;
}

/** What the user's own rules mean next to ReadGate's. */
function ruleNotes(allow: readonly string[], deny: readonly string[]): string[] {
  const names = (rules: readonly string[], tool: string): string[] => rules.filter((rule) => rule === tool || rule.startsWith(`${tool}(`));
  const notes = DENIED_TOOLS.flatMap((tool) =>
    names(allow, tool).map((rule) => `your allow rule "${rule}" stays, but Claude Code applies deny rules first: ${tool} stays denied`),
  );
  for (const rule of deny.filter((each) => each === READGATE_RULE || each.startsWith(`${READGATE_RULE}__`))) {
    notes.push(`your deny rule "${rule}" stays and wins over the allow rule: Claude Code refuses the ReadGate tools it names`);
  }
  return notes;
}

/**
 * `existing`: the parsed file (undefined when there is none). `hookCommand`: the shell command that runs
 * ReadGate's `hook` (`node <script> hook`, quoted for sh).
 */
export function mergeClaudeSettings(existing: unknown, hookCommand: string): SettingsMerge {
  const problem = shapeProblem(existing === undefined ? {} : existing);
  if (problem) return { ok: false, problem };
  const settings = structuredClone((existing ?? {}) as Json);
  const changes: string[] = [];
  const permissions = (settings.permissions ??= {}) as Json;
  const allow = (permissions.allow ??= []) as string[];
  const deny = (permissions.deny ??= []) as string[];
  if (!allow.includes(READGATE_RULE)) (allow.push(READGATE_RULE), changes.push(`allowed ${READGATE_RULE}`));
  for (const tool of DENIED_TOOLS) if (!deny.includes(tool)) (deny.push(tool), changes.push(`denied ${tool}`));
  const hooks = (settings.hooks ??= {}) as Json;
  for (const wanted of WANTED_HOOKS) {
    const change = placeHook(hooks, wanted, hookCommand);
    if (change) changes.push(`${change} the ${wanted.event} hook`);
  }
  const notes = ruleNotes(allow, deny);
  if (settings.disableAllHooks === true) notes.push('your "disableAllHooks": true stays, and turns ReadGate\'s hooks off too');
  return { ok: true, settings, changes, notes };
}

/**
 * With `--own-tools`: Claude Code keeps Read, Edit, Write and NotebookEdit, and ReadGate's hooks judge each call
 * (`hookCommand` is `node <script> hook`, the flags are added per event). A deny rule of ReadGate's earlier
 * set-up for those tools is taken out, since Claude Code could not use them; the user's other rules stay.
 */
export function mergeClaudeOwnTools(existing: unknown, hookCommand: string): SettingsMerge {
  const problem = shapeProblem(existing === undefined ? {} : existing, OWN_TOOLS_HOOKS);
  if (problem) return { ok: false, problem };
  const settings = structuredClone((existing ?? {}) as Json);
  const changes: string[] = [];
  const notes: string[] = [];
  const permissions = isObject(settings.permissions) ? settings.permissions : undefined;
  const deny = permissions && isStringList(permissions.deny) ? permissions.deny : [];
  for (const tool of DENIED_TOOLS) {
    const at = deny.indexOf(tool);
    if (at < 0) continue;
    deny.splice(at, 1);
    changes.push(`took ${tool} out of permissions.deny (ReadGate judges it now)`);
  }
  const hooks = (settings.hooks ??= {}) as Json;
  for (const wanted of OWN_TOOLS_HOOKS) {
    const change = placeHook(hooks, wanted, hookCommand);
    if (change) changes.push(`${change} the ${wanted.event} hook`);
  }
  if (settings.disableAllHooks === true) notes.push('your "disableAllHooks": true stays, and turns ReadGate\'s hooks off too: nothing is judged');
  return { ok: true, settings, changes, notes };
}
