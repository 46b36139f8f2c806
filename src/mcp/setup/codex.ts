/**
 * `setup codex`: ReadGate's `[mcp_servers.readgate]` table in Codex's config.toml (codexConfig.ts), the project's
 * `.codex/config.toml` or, with `--user`, `$CODEX_HOME/config.toml`. It writes no hooks: Codex runs a hook only
 * once the user trusted it (its `/hooks` review records a hash of each), and trusting ReadGate's own hooks on the
 * user's behalf would skip the very review Codex asks for; the printed text says how to add and trust them.
 */
import * as path from 'path';
import { shellWord } from '../shellWord';
import { CODEX_TOOL_TIMEOUT_SECONDS, mergeCodexConfig } from './codexConfig';
import { ownToolsHooks, ownToolsHooksText } from './ownToolsHooks';
import type { Launch, SetupPlace, SetupTarget } from './setupTarget';

/** Codex's own folder: `$CODEX_HOME`, else `~/.codex`. */
export function codexHomeFolder(env: NodeJS.ProcessEnv, home: string): string {
  return env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex');
}

/** What the user puts in AGENTS.md so Codex edits through ReadGate. */
export const CODEX_AGENTS_MD =
  'Read and change files only with the readgate_read, readgate_edit, readgate_multiEdit, readgate_write and readgate_applyPatch tools. Write your patches (apply_patch format) with readgate_applyPatch instead of your own patch tool.';

/** Codex reads a project's `.codex/` only once the folder is trusted. */
export function codexTrustNote(project: string): string {
  return `Codex reads ${path.join(project, '.codex', 'config.toml')} only in a project you trust: start codex in ${project} once and trust it (or run codex exec --trust there once). Until then it does not start ReadGate there.`;
}

/** How to add the hooks that tell ReadGate which of Codex's agents makes each call, and trust them. */
export function codexHooksNote(launch: Launch): string {
  const command = `node ${shellWord(launch.script)} hook`;
  return `Optional: hooks that tell ReadGate which of Codex's agents (main or subagent) makes each call, so each keeps its own reads. This does not write them: Codex runs a hook only after you trusted it. Add to .codex/hooks.json (or ~/.codex/hooks.json) a PreToolUse hook with matcher "mcp__readgate__.*" running \`${command} --compaction-hooked\`, and PreCompact, SessionStart (matcher "compact|clear") and SubagentStop hooks running \`${command}\`; then open /hooks in codex and trust them (codex exec skips hooks not trusted without a word).`;
}

export const codexTarget: SetupTarget = {
  get ownTools() {
    return codexOwnToolsTarget;
  },
  summary: 'Codex: .codex/config.toml (or ~/.codex/config.toml with --user): the readgate MCP server, approved to run',
  help: `Writes or merges <project>/.codex/config.toml (with --user: $CODEX_HOME/config.toml, by default
~/.codex/config.toml) so that Codex works through ReadGate: its [mcp_servers.readgate] table gets
  - command and args: how Codex starts ReadGate (this script);
  - tool_timeout_sec = ${CODEX_TOOL_TIMEOUT_SECONDS} (a call waits while you review its change; a longer value of yours stays);
  - default_tools_approval_mode = "approve": under codex exec Codex otherwise refuses every ReadGate call but
    reads ("MCP tool call requires approval, but approval policy is never"); your review in VS Code approves edits.
Every other table, key and comment of the file stays as it is, and running it again changes nothing.
Codex reads a project's .codex/config.toml only in a project you trust.`,
  file: path.join('.codex', 'config.toml'),
  userFile: (env, home) => path.join(codexHomeFolder(env, home), 'config.toml'),
  merge: mergeCodexConfig,
  nextSteps: (launch, place: SetupPlace) => [
    ...(place.user ? [] : [codexTrustNote(place.project), '']),
    "Tell Codex to edit through ReadGate, for example in the project's AGENTS.md:",
    '',
    `  ${CODEX_AGENTS_MD}`,
    '',
    codexHooksNote(launch),
  ],
};

/** Codex's own tools ReadGate judges, as its hooks name them: its shell (`exec_command`) and `apply_patch`. */
export const CODEX_OWN_TOOLS_MATCHER = 'Bash|apply_patch';
export const CODEX_OWN_TOOLS_HOOKS = ownToolsHooks('codex', CODEX_OWN_TOOLS_MATCHER, [
  { event: 'SubagentStart' },
  { event: 'SubagentStop' },
  { event: 'PreCompact' },
  { event: 'SessionStart', matcher: 'compact|clear' },
]);

/** `setup codex --own-tools`: Codex keeps its shell and apply_patch, judged through its hooks. */
export const codexOwnToolsTarget: SetupTarget = {
  summary: 'Codex with its own tools: .codex/hooks.json hooks that let ReadGate judge apply_patch and follow shell reads',
  help: `With --own-tools: writes or merges <project>/.codex/hooks.json (with --user: $CODEX_HOME/hooks.json) so that
Codex keeps its own tools, and ReadGate judges them through its hooks:
  - PreToolUse and PostToolUse of ${CODEX_OWN_TOOLS_MATCHER} run this script's "hook --own-tools": a shell command that
    shows one file (cat, sed -n 'a,bp', nl -ba, head, tail, rg -n or grep -n with one file, piped through head,
    tail or sed -n) counts for the lines of the file its output holds; an apply_patch of lines Codex was not
    shown, or that changed since, is denied with what changed; after it, the change is on record;
  - SubagentStart, SubagentStop, PreCompact and SessionStart (compact, clear) tell ReadGate when a context starts,
    ends or forgets.
No MCP server is needed. Your other hooks stay as they are, and running it again changes nothing.
Codex runs a hook only once you trusted it, and reads a project's .codex/ only in a project you trust.`,
  file: path.join('.codex', 'hooks.json'),
  userFile: (env, home) => path.join(codexHomeFolder(env, home), 'hooks.json'),
  merge: ownToolsHooksText(CODEX_OWN_TOOLS_HOOKS),
  nextSteps: (launch, place: SetupPlace) => [
    ...(place.user
      ? []
      : [codexTrustNote(place.project).replace('config.toml', 'hooks.json').replace('it does not start ReadGate there', 'it runs none of its hooks'), '']),
    "Then trust ReadGate's hooks: open /hooks in codex and trust each of them (codex exec skips a hook not trusted, without a word). Codex asks again whenever a hook's command changes.",
    '',
    launch.args.length
      ? "Codex's apply_patch is judged by the ReadGate window on the project folder, or, with none open, by ReadGate's headless guard on the folders above."
      : "Codex's apply_patch is judged by the ReadGate window on the project folder (a VS Code window with ReadGate); with none open it is allowed.",
    "Shell commands that write files are not judged: ReadGate notices their changes afterwards, as any other writer's.",
  ],
};
