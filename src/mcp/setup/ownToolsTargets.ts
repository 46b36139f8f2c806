/**
 * `setup gemini-cli --own-tools` and `setup qwen-code --own-tools`: the client keeps its own file tools, and
 * ReadGate's hooks in its settings file judge them (`ownToolsHooks.ts`). These targets set up only that: to work
 * through ReadGate's tools instead, the Connect guide gives each client's MCP set-up.
 */
import * as path from 'path';
import { ownToolsHooks, ownToolsHooksText } from './ownToolsHooks';
import type { Launch, SetupTarget } from './setupTarget';

const judgedBy = (launch: Launch, tools: string): string =>
  launch.args.length
    ? `${tools} are judged by the ReadGate window on the project folder, or, with none open, by ReadGate's headless guard on the folders above.`
    : `${tools} are judged by the ReadGate window on the project folder (a VS Code window with ReadGate); with none open they are allowed.`;

export const GEMINI_OWN_TOOLS_MATCHER = 'read_file|replace|write_file|invoke_agent';
export const GEMINI_OWN_TOOLS_HOOKS = ownToolsHooks('gemini-cli', GEMINI_OWN_TOOLS_MATCHER, [{ event: 'SessionStart', matcher: 'clear' }], {
  before: 'BeforeTool',
  after: 'AfterTool',
  milliseconds: true,
});

export const geminiOwnToolsTarget: SetupTarget = {
  summary: 'Gemini CLI with its own tools: .gemini/settings.json hooks that let ReadGate judge read_file, replace and write_file',
  help: `With --own-tools: writes or merges <project>/.gemini/settings.json (with --user: ~/.gemini/settings.json) so
that Gemini CLI keeps its own tools, and ReadGate judges them through its hooks:
  - BeforeTool and AfterTool of ${GEMINI_OWN_TOOLS_MATCHER} run this script's "hook --own-tools": a
    read_file counts for the lines of the file its result holds, as the model received it; a replace or write_file
    of lines Gemini CLI was not shown, or that changed since, is denied with what changed; after it, the change is
    on record; invoke_agent tells ReadGate when a subagent runs, whose reads and edits are its own;
  - SessionStart (clear) tells ReadGate when the conversation restarts without what it read.
No MCP server is needed. Your other settings stay as they are, and running it again changes nothing.`,
  file: path.join('.gemini', 'settings.json'),
  userFile: (_env, home) => path.join(home, '.gemini', 'settings.json'),
  merge: ownToolsHooksText(GEMINI_OWN_TOOLS_HOOKS),
  nextSteps: (launch) => [
    "Gemini CLI reads a project's .gemini/settings.json only in a folder you trust, and warns once about new project hooks before it runs them.",
    judgedBy(launch, "Gemini CLI's own file tools"),
    'Gemini CLI does not tell its hooks when it compresses a conversation (its PreCompress fires before every request, compressing or not): lines read before a compression still count after it.',
  ],
  ownToolsOnly: true,
};

export const QWEN_OWN_TOOLS_MATCHER = 'read_file|edit|write_file|notebook_edit';
export const QWEN_OWN_TOOLS_HOOKS = ownToolsHooks('qwen-code', QWEN_OWN_TOOLS_MATCHER, [
  { event: 'SubagentStart' },
  { event: 'SubagentStop' },
  { event: 'PreCompact' },
  { event: 'SessionStart', matcher: 'compact|clear' },
]);

export const qwenOwnToolsTarget: SetupTarget = {
  summary: 'Qwen Code with its own tools: .qwen/settings.json hooks that let ReadGate judge read_file, edit and write_file',
  help: `With --own-tools: writes or merges <project>/.qwen/settings.json (with --user: ~/.qwen/settings.json) so that
Qwen Code keeps its own tools, and ReadGate judges them through its hooks:
  - PreToolUse and PostToolUse of ${QWEN_OWN_TOOLS_MATCHER} run this script's "hook --own-tools": a read_file
    counts for the lines of the file its result holds, as the model received it; an edit, write_file or
    notebook_edit of lines Qwen Code was not shown, or that changed since, is denied with what changed; after it,
    the change is on record;
  - SubagentStart, SubagentStop, PreCompact and SessionStart (compact, clear) tell ReadGate when a context starts,
    ends or forgets.
No MCP server is needed. Your other settings stay as they are, and running it again changes nothing.`,
  file: path.join('.qwen', 'settings.json'),
  userFile: (_env, home) => path.join(home, '.qwen', 'settings.json'),
  merge: ownToolsHooksText(QWEN_OWN_TOOLS_HOOKS),
  nextSteps: (launch) => [judgedBy(launch, "Qwen Code's own file tools")],
  ownToolsOnly: true,
};

/** The targets `setup` lists for these clients: their own tools only. */
export const geminiTarget: SetupTarget = { ...geminiOwnToolsTarget, ownTools: geminiOwnToolsTarget };
export const qwenTarget: SetupTarget = { ...qwenOwnToolsTarget, ownTools: qwenOwnToolsTarget };
