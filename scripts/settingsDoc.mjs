// docs/settings.md, made from package.json: every setting of `contributes.configuration` (its type, default,
// range or values, where it counts, and its description) and every command of `contributes.commands` (where it
// appears, from `contributes.menus`, and what it does, from COMMAND_NOTES below). `npm run docs` writes the file;
// a unit test (test/unit/docs.test.ts) fails when the file differs from what this returns, so the page cannot
// drift from the manifest.

/** What each command does, by id. A command missing here (or a note for a command that is gone) fails the build of the page. */
export const COMMAND_NOTES = {
  'readgate.reviewPending': 'Reopens the approval panel with the changes waiting for you.',
  'readgate.showLedger': 'A read-only report of the files a session has seen, the lines, versions and who changed them since.',
  'readgate.forgetSession': 'Drops what a session has seen (files are not touched; its agent reads again).',
  'readgate.forgetAllSessions': 'Drops what every session has seen (files are not touched; agents read again).',
  'readgate.clearEndedSessions': 'Removes the sessions that ended from the view and the statistics.',
  'readgate.toggleDedup': 'Turns the *unchanged* placeholder on or off ([`readgate.read.dedup`](#readgatereaddedup)).',
  'readgate.showStatistics': 'Reads, placeholder hits and estimated tokens saved, changes applied and refusals by code, per session; lines added and removed per agent from the change history, and the problems its changes introduced and resolved.',
  'readgate.showLog': 'Reveals the *ReadGate* log channel: every decision as data, never file content (set its level there).',
  'readgate.openFile': 'Opens a file a session has seen.',
  'readgate.revealSeenRange': 'Opens a file a session has seen with exactly the lines it saw selected.',
  'readgate.openToolResults': 'Lists the oversized tool results saved for agents (newest first) and opens the one you pick.',
  'readgate.applyPatch': 'Applies a unified diff, search/replace blocks or an apply_patch patch from the clipboard or an editor through the guard: reviewed, all files or none, refused with the differing lines when stale.',
  'readgate.getStarted': 'Opens the walkthrough: apply a sample patch, see a stale one refused, review a sample agent\'s change, look at the Sessions view; no language model needed.',
  'readgate.openSamplePatch': 'Shows one of the walkthrough\'s sample patches for the demo workspace.',
  'readgate.openSettings': 'ReadGate\'s settings, in a remote window on the Remote tab (where the approval and path settings count).',
  'readgate.proposeSampleChange': 'A sample agent reads the demo workspace\'s `src/inventory.ts` and proposes a change of two hunks, for you to review.',
  'readgate.connectExternalAgent': 'Turns on the MCP server (after asking) and shows copyable set-up for Claude Code, Codex, Gemini CLI, Qwen Code, Cline and any MCP client.',
  'readgate.createGuardedAgent': 'Writes a custom agent for Copilot\'s agent mode that edits only through ReadGate.',
  'readgate.enableAgentHooks': "Turns on `readgate.agentHooks.enabled`: Copilot's agent mode keeps its own file tools, and ReadGate judges each call through VS Code's agent hooks.",
  'readgate.revertChange': 'Undoes one recorded change, keeping later ones; reviewed in the panel, conflicts shown.',
  'readgate.revertSession': 'Undoes all of a session\'s changes, newest first, as one change; reviewed in the panel, conflicts shown.',
  'readgate.revertFileToSessionStart': 'Undoes what one session did to one file, leaving its other files alone; reviewed in the panel, conflicts shown.',
  'readgate.exportChangeLog': 'Every change on record as JSON Lines, with or without the files\' contents.',
  'readgate.showFileChanges': 'The changes on record of the file (or the active editor\'s); the one you pick opens in the diff editor.',
  'readgate.openAgentChange': 'Opens what a recorded change did to a file in the diff editor, before and after.',
};

const INTRO = `# Settings and commands

<!-- Generated from package.json by \`npm run docs\` (scripts/settingsDoc.mjs); a unit test fails when this file
differs. Change package.json or the script, then run \`npm run docs\`. -->

All settings apply live, without a reload. Settings that decide what agents may touch or whether a change is
reviewed count only from your user (or remote machine) settings, and deny lists of user, workspace and folder
settings add up, so a repository you open cannot loosen the guard.`;

/** GitHub's anchor of a heading made of `text`. */
export function anchorOf(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** VS Code's `#setting.id#` links in a markdownDescription as links to the setting's heading on this page. */
function withSettingLinks(markdown) {
  return markdown.replace(/`?#(readgate\.[\w.]+)#`?/g, (_, id) => `[\`${id}\`](#${anchorOf(id)})`);
}

const code = (value) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

function typeOf(schema) {
  if (schema.type === 'array') return `array of ${schema.items?.type ?? 'values'}s`;
  return schema.type;
}

function defaultOf(schema) {
  if (Array.isArray(schema.default)) return schema.default.length === 0 ? '`[]`' : schema.default.map(code).join(', ');
  return code(schema.default);
}

function rangeOf(schema) {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return `from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `at least ${minimum}`;
  if (maximum !== undefined) return `at most ${maximum}`;
  return undefined;
}

const SCOPES = {
  application: 'only from your user settings',
  machine: 'only from your user (or remote machine) settings',
};

function settingMarkdown(id, schema) {
  const facts = [`Type: ${typeOf(schema)}`, `default: ${defaultOf(schema)}`];
  const range = rangeOf(schema);
  if (range) facts.push(range);
  if (SCOPES[schema.scope]) facts.push(`counts ${SCOPES[schema.scope]}`);
  const parts = [`### \`${id}\``, `${facts.join(' · ')}.`, withSettingLinks(schema.markdownDescription ?? schema.description ?? '')];
  if (schema.enum) parts.push(schema.enum.map((value, i) => `- ${code(value)}: ${schema.enumDescriptions?.[i] ?? ''}`.trimEnd()).join('\n'));
  return parts.join('\n\n');
}

/** Where a command appears: the Command Palette (unless hidden there) and the menus that name it. */
function placesOf(id, manifest) {
  const menus = manifest.contributes.menus ?? {};
  const views = Object.fromEntries(Object.values(manifest.contributes.views ?? {}).flat().map((view) => [view.id, view.name]));
  const viewOf = (when) => views[/\bview == ([\w.]+)/.exec(when ?? '')?.[1]] ?? 'a view';
  const hidden = (menus.commandPalette ?? []).some((item) => item.command === id && item.when === 'false');
  const places = hidden ? [] : ['Command Palette'];
  const add = (place) => places.includes(place) || places.push(place);
  for (const [menu, items] of Object.entries(menus)) {
    for (const item of items.filter((each) => each.command === id)) {
      if (menu === 'view/title') add(`the ${viewOf(item.when)} view's title bar`);
      else if (menu === 'view/item/context') add(`items of the ${viewOf(item.when)} view`);
      else if (menu === 'explorer/context') add('the Explorer\'s context menu');
      else if (menu === 'editor/context') add('the editor\'s context menu');
      else if (menu === 'editor/title/context') add('an editor tab\'s context menu');
      else if (menu !== 'commandPalette') add(menu);
    }
  }
  return places;
}

function commandsMarkdown(manifest) {
  const commands = manifest.contributes.commands;
  const ids = new Set(commands.map((command) => command.command));
  const missing = [...ids].filter((id) => !COMMAND_NOTES[id]);
  const stale = Object.keys(COMMAND_NOTES).filter((id) => !ids.has(id));
  if (missing.length || stale.length) throw new Error(`COMMAND_NOTES in scripts/settingsDoc.mjs: ${[...missing.map((id) => `no note for ${id}`), ...stale.map((id) => `a note for ${id}, which package.json does not contribute`)].join('; ')}`);
  const rows = commands.map((command) => `| **${command.title}** | \`${command.command}\` | ${placesOf(command.command, manifest).join(', ')} | ${COMMAND_NOTES[command.command]} |`);
  return ['## Commands', 'Every command is in the *ReadGate* category.', ['| command | id | where | what it does |', '|---|---|---|---|', ...rows].join('\n')].join('\n\n');
}

/** The whole of docs/settings.md for a parsed package.json. */
export function settingsDoc(manifest) {
  const properties = manifest.contributes.configuration.properties;
  const settings = Object.entries(properties).map(([id, schema]) => settingMarkdown(id, schema));
  return `${[INTRO, '## Settings', ...settings, commandsMarkdown(manifest)].join('\n\n')}\n`;
}
