/**
 * What **Connect an External Agent…** shows, as data (no `vscode` import, so it is unit-tested): per agent, the
 * set-up to copy, and an honest account of what ReadGate guards and what it does not. Agents start the stdio
 * bridge, which finds the window by its workspace folder, so one set-up serves every window and survives
 * restarts; the HTTP endpoint and token change with each window.
 */
import { claudeMcpAddLine, CODEX_AGENTS_MD, CODEX_TOOL_TIMEOUT_SECONDS, codexServerTable, shellWord } from '../../mcp/index';

export interface GuideBlock {
  /** Shown above the block. */
  caption: string;
  /** Exactly what the Copy button copies. */
  text: string;
  /** Shown instead of `text` when it holds a secret (the token). */
  display?: string;
}

export interface GuideSection {
  id: string;
  title: string;
  intro: string;
  blocks: GuideBlock[];
  notes: string[];
  /** A one-click set-up the page offers as a button (the panel carries it out), with what to show once it is done. */
  action?: { id: 'enableAgentHooks'; label: string; done: boolean; doneText: string; docText: string };
}

export interface GuideInput {
  /** Where the stdio bridge is installed (`~/.readgate/mcp-bridge.js`). */
  bridgePath: string;
  /** Where windows publish themselves and the bridge looks (`~/.readgate/windows`). */
  discoveryDir?: string;
  /** The headless server in the extension (`dist/mcp.js`). */
  headlessPath: string;
  /** This window's server, when it runs. */
  endpoint?: { url: string; token: string };
  /** The workspace folder agents work in (for the headless example). */
  folder?: string;
  /** `readgate.agentHooks.enabled`: Copilot's own tools are judged already. */
  agentHooks?: boolean;
}

/** A path as one shell word (POSIX quoting, only when needed): the same quoting as the setup command's. */
export { shellWord };

export const NOT_GUARDED = [
  "Guarded: every read and change an agent makes through the readgate_* tools. Each change is checked against what that agent has read and waits in the review panel (as your readgate.approval.mode says), and open editors' unsaved text is what the agent sees.",
  "Not guarded: the agent's shell commands (a `sed -i`, a `git checkout` or a build script changes files without ReadGate; ReadGate only notices afterwards), its own built-in file tools unless you turn them off as shown, and anything it does on another machine.",
  "Not reachable: files outside the window's workspace folders (and readgate.paths.extraRoots), and files your readgate.paths.deny globs exclude.",
];

/** For every client: what a call hears while its change waits for review (each section names its client's limit). */
export const WAITING_FOR_REVIEW =
  'A call whose change waits for your review waits with it. If its request asked for progress (a progressToken), ReadGate tells it so at once and every 10 seconds ("Waiting for the user to review the change to …"): a client that restarts its timeout on progress (resetTimeoutOnProgress in the official TypeScript SDK) waits as long as you review. Any other waits only as long as its own timeout (60 seconds in that SDK unless the client sets another); each agent above says where its limit is set.';

/** The guide's sections, one agent each, in the page's order. */
export function connectGuide(input: GuideInput): GuideSection[] {
  return [
    claudeCodeSection(input),
    codexSection(input),
    geminiSection(input),
    qwenSection(input),
    clineSection(input),
    anyClientSection(input),
    copilotSection(input),
  ];
}

/** The bridge's path as one shell word, and the stdio JSON most clients take. */
function bridgeOf(input: GuideInput): { bridge: string; stdioJson: string } {
  return {
    bridge: shellWord(input.bridgePath),
    stdioJson: JSON.stringify({ mcpServers: { readgate: { command: 'node', args: [input.bridgePath] } } }, null, 2),
  };
}

/**
 * The other way: the agent keeps its own tools, judged through its hooks (`setup <target> --own-tools`), and when
 * to choose it over ReadGate's tools.
 */
function ownToolsBlock(bridge: string, target: string, tools: string): GuideBlock {
  return {
    caption: `Or, instead of all this, keep ${tools}: this writes ReadGate's hooks, and ReadGate judges each read and edit of them (an edit of lines the agent was not shown, or that changed since, is denied with what changed). The model keeps the tools it was trained on; ReadGate's own tools add placeholders for repeated reads, re-reads of only what changed and writes that keep every other byte.`,
    text: `node ${bridge} setup ${target} --own-tools`,
  };
}

function claudeCodeSection(input: GuideInput): GuideSection {
  const { bridge } = bridgeOf(input);
  return {
    id: 'claude-code',
    title: 'Claude Code',
    intro:
      "Set the project up with one command, then add ReadGate as its MCP server. The command allows ReadGate's tools, turns off Claude Code's own file-editing tools so its edits go through ReadGate, and adds hooks that tell ReadGate which of Claude Code's agents a call comes from and when the conversation was summarized or cleared.",
    blocks: [
      {
        caption:
          "In a terminal, in the project folder: this writes .claude/settings.json, or merges into it (your other settings stay; running it again changes nothing; --dry-run shows the file first). ReadGate's tools are allowed (Claude Code refuses every MCP call, reads too, until they are), Claude Code's own Edit, Write and NotebookEdit tools are denied, and its hooks run the bridge.",
        text: `node ${bridge} setup claude-code`,
      },
      {
        caption:
          "Then the line it prints, in the same folder (this writes .mcp.json). Claude Code applies a project's allow rules only in a folder you trust: start claude in the project folder once and accept its trust dialog.",
        text: claudeMcpAddLine({ script: input.bridgePath, args: [] }),
      },
      {
        caption:
          "Once, in .claude/settings.local.json (not committed): approve the project's server, or answer the question Claude Code asks at its first start.",
        text: JSON.stringify({ enabledMcpjsonServers: ['readgate'] }, null, 2),
      },
      {
        caption: 'Without the settings above, or in a folder not trusted yet, a non-interactive run needs the allow rule on its command line:',
        text: 'claude -p "<your task>" --allowedTools mcp__readgate',
      },
      ownToolsBlock(bridge, 'claude-code', "Claude Code's Read, Edit, Write and NotebookEdit"),
    ],
    notes: [
      'Claude Code then reads and edits with mcp__readgate__readgate_read, mcp__readgate__readgate_edit and the others; your review in VS Code replaces its own prompt for those edits.',
      'Claude Code shows its model only a 2,000-character preview of a tool result over 50,000 characters, so ReadGate keeps each result under 45,000 (less if you lowered MAX_MCP_OUTPUT_TOKENS). Its subagents share the connection: the hooks the setup adds tell ReadGate which agent makes each call, so each keeps its own reads, a repeated read of unchanged lines is a short placeholder and a re-read after a change brings only what changed; without the hooks a repeated read gets the content again.',
      'While a change waits for your review, the call waits too, for at most MCP_TOOL_TIMEOUT milliseconds (an environment variable, or "env" in Claude Code\'s settings.json): 100,000,000 by default, over a day. MCP_TIMEOUT is something else: how long the server may take to start.',
    ],
  };
}

function codexSection(input: GuideInput): GuideSection {
  const { bridge } = bridgeOf(input);
  return {
    id: 'codex',
    title: 'Codex',
    intro:
      "Set Codex up with one command, and tell it to edit through ReadGate (for example in the project's AGENTS.md). The command adds ReadGate's MCP server to Codex's config.toml, approved to run: under codex exec Codex otherwise refuses every ReadGate call but reads (\"MCP tool call requires approval, but approval policy is never\"). Your review in VS Code is the approval for changes.",
    blocks: [
      {
        caption:
          "In a terminal, in the project folder: this writes .codex/config.toml, or merges into it (your other tables, keys and comments stay; running it again changes nothing; --dry-run shows the file first). Codex reads a project's .codex/config.toml only in a project you trust: start codex there once and trust it.",
        text: `node ${bridge} setup codex`,
      },
      { caption: 'Or once for every project, in ~/.codex/config.toml ($CODEX_HOME/config.toml):', text: `node ${bridge} setup codex --user` },
      { caption: 'What it writes, to add by hand instead:', text: codexServerTable({ script: input.bridgePath, args: [] }) },
      { caption: 'In AGENTS.md:', text: CODEX_AGENTS_MD },
      ownToolsBlock(bridge, 'codex', "Codex's apply_patch and its shell's reads (then trust the hooks in codex's /hooks)"),
    ],
    notes: [
      'Codex can still change files with its own patch tool or shell commands; those changes are not guarded.',
      'Codex keeps only the first and last halves of a tool result over 11,964 bytes (for a model it has no data for; 47,964 for its own models), so ReadGate keeps each result under 9,000 characters for it: read long files in ranges.',
      `While a change waits for your review, the call waits too, for at most tool_timeout_sec seconds, a key of the [mcp_servers.readgate] table above: the command sets ${CODEX_TOOL_TIMEOUT_SECONDS} (keeping a longer value of yours). If your reviews may take longer, raise it there.`,
      "Optional: Codex's hooks can tell ReadGate which of its agents makes each call, so a subagent keeps its own reads. The command prints them but does not write them: Codex runs a hook only after you trusted it in its /hooks view (codex exec skips one not trusted without a word).",
    ],
  };
}

function geminiSection(input: GuideInput): GuideSection {
  return {
    id: 'gemini',
    title: 'Gemini CLI',
    intro:
      'Add ReadGate to the project\'s .gemini/settings.json (or ~/.gemini/settings.json). "trust" lets Gemini CLI call ReadGate\'s tools without asking: your review in VS Code is the approval for changes.',
    blocks: [
      {
        caption: 'In .gemini/settings.json (merge "readgate" into "mcpServers"):',
        text: JSON.stringify({ mcpServers: { readgate: { command: 'node', args: [input.bridgePath], trust: true } } }, null, 2),
      },
      {
        caption:
          'Gemini CLI reads a project\'s .gemini/settings.json only in a folder you trust: start gemini in the project folder once and choose "Trust folder". That is recorded in ~/.gemini/trustedFolders.json; to trust the folder without the dialog, merge this into that file:',
        text: JSON.stringify({ [input.folder ?? '/path/to/project']: 'TRUST_FOLDER' }, null, 2),
      },
      {
        caption:
          "In a folder not trusted, a non-interactive gemini -p ignores the project's settings and stops at once with exit code 55. To trust the folder for one run only, set this variable (its --skip-trust flag is not enough: that run goes on without the project's settings, so without ReadGate):",
        text: 'GEMINI_CLI_TRUST_WORKSPACE=true gemini -p "<your task>"',
      },
      ownToolsBlock(bridgeOf(input).bridge, 'gemini-cli', "Gemini CLI's read_file, replace and write_file"),
    ],
    notes: [
      'Gemini CLI cuts a single text result over min(40,000, what is left of its context) characters, counted with the <untrusted_context> tags it wraps the result in, to its first 8,000 and last 32,000 characters (a fifth and four fifths of a lower limit), mid-line; ReadGate keeps each result under 30,000. Its own file tools and shell commands are not guarded: tell it to use the readgate_* tools (GEMINI.md).',
      'While a change waits for your review, the call waits too, for at most "timeout" milliseconds, a field of the "readgate" entry (600000, ten minutes, by default). If your reviews may take longer, add for example "timeout": 1800000.',
    ],
  };
}

function qwenSection(input: GuideInput): GuideSection {
  return {
    id: 'qwen',
    title: 'Qwen Code',
    intro:
      'Add ReadGate to the project\'s .qwen/settings.json (or ~/.qwen/settings.json). "alwaysLoadTools" shows ReadGate\'s tools to the model directly (Qwen Code otherwise hides MCP tools behind its tool_search), and "trust" lets it call them without asking: your review in VS Code is the approval for changes.',
    blocks: [
      {
        caption: 'In .qwen/settings.json (merge "readgate" into "mcpServers"):',
        text: JSON.stringify({ mcpServers: { readgate: { command: 'node', args: [input.bridgePath], alwaysLoadTools: true, trust: true } } }, null, 2),
      },
      {
        caption:
          "Then, in a terminal, in the project folder: approve the server. Qwen Code starts a project's MCP server only once you approved it (it asks at its next interactive start; a non-interactive run leaves it off), and again after the entry changes.",
        text: 'qwen mcp approve readgate',
      },
      ownToolsBlock(bridgeOf(input).bridge, 'qwen-code', "Qwen Code's read_file, edit, write_file and notebook_edit"),
    ],
    notes: [
      'ReadGate keeps each result under 24,000 characters for Qwen Code, which shows the model only the first 2,000 characters of a longer one. Its own file tools and shell commands are not guarded: tell it to use the readgate_* tools (QWEN.md).',
      'While a change waits for your review, the call waits too, for at most "timeout" milliseconds, a field of the "readgate" entry (600000, ten minutes, by default; the same field as in Gemini CLI). If your reviews may take longer, add for example "timeout": 1800000.',
    ],
  };
}

function clineSection(input: GuideInput): GuideSection {
  const { stdioJson } = bridgeOf(input);
  return {
    id: 'cline',
    title: 'Cline (and Roo Code, Kilo Code)',
    intro: 'In Cline\'s MCP Servers view, open "Configure MCP Servers" and add ReadGate to cline_mcp_settings.json.',
    blocks: [{ caption: 'In cline_mcp_settings.json (merge "readgate" into "mcpServers"):', text: stdioJson }],
    notes: ['Tell Cline to use the readgate_* tools for files (for example in .clinerules); its own file tools are not guarded.'],
  };
}

function anyClientSection(input: GuideInput): GuideSection {
  const { bridge, stdioJson } = bridgeOf(input);
  return {
    id: 'any',
    title: 'Any MCP client',
    intro: 'Start the bridge as a stdio server in the project folder, from any terminal of this user: it finds this window by its workspace folder.',
    blocks: [
      { caption: 'The command:', text: `node ${bridge}` },
      { caption: 'To see where the bridge looks, the windows it finds and which one an agent in this folder reaches:', text: `node ${bridge} --list` },
      { caption: 'As JSON, for clients configured with "mcpServers":', text: stdioJson },
      ...(input.endpoint
        ? [
            {
              caption: 'Or Streamable HTTP straight to this window (the port and the token change with each window; prefer the bridge):',
              text: `URL: ${input.endpoint.url}\nHeader: Authorization: Bearer ${input.endpoint.token}`,
              display: `URL: ${input.endpoint.url}\nHeader: Authorization: Bearer ${'•'.repeat(12)} (copied in full)`,
            },
          ]
        : []),
      {
        caption: "Without VS Code (approval is then the client's own permission prompt):",
        text: `node ${shellWord(input.headlessPath)} --root ${shellWord(input.folder ?? '.')}`,
      },
    ],
    notes: [
      `The windows publish themselves in ${input.discoveryDir ?? 'the windows folder beside the bridge'}. Unless READGATE_HOME is set, that folder is in your home as the system's user database has it, not $HOME, so an agent in any terminal of this user finds a VS Code that runs with another HOME. READGATE_HOME moves the folder (and the bridge) for VS Code and agents alike: set it for both or for neither.`,
    ],
  };
}

/** What the agent hooks guard of Copilot's own tools, and what they leave alone (the guide and docs/agents.md). */
export const COPILOT_OWN_TOOLS = [
  "read_file counts for the lines the model was shown, in a version that held while it read: lines over 2,000 characters are shortened by Copilot and do not count, and only the first 8,000 characters of a result count (readgate.tools.maxResultChars), as Copilot leaves lines out of a long result when the model's prompt is full. A notebook's read shows cells, not the file's lines: read a notebook with readgate_read before editing it.",
  'replace_string_in_file, multi_replace_string_in_file, create_file over an existing file and apply_patch are judged as ReadGate\'s own edits: the old text must be in the file exactly, in lines this chat (or this subagent) was shown, unchanged since; replacing a file needs all of it seen; new files are free. A denial reaches the model as "Tool execution denied" with ReadGate\'s refusal: its code, the diff of what changed and by whom, what to read.',
  'insert_edit_into_file and edit_notebook_file decide for themselves where their change goes: they need the whole file seen, and when readgate.approval.mode asks for a review they are denied, as there is nothing to show before they write.',
  "An allowed change is made by Copilot's own tool (its Keep and Undo stay), after your review when readgate.approval.mode asks for one, and is then recorded in Agent Changes, where it can be reverted.",
  "Not guarded: terminal commands (ReadGate notices their changes afterwards), create_directory, and other extensions' tools. Between ReadGate's decision and Copilot's write there is a moment in which another writer could change the file; what Copilot writes is then compared with what was allowed, and a difference is noted in ReadGate's log and counts for nothing.",
];

function copilotSection(input: GuideInput): GuideSection {
  return {
    id: 'copilot',
    title: 'Copilot agent mode and other extensions',
    intro:
      "Copilot's agent mode can keep its own file tools: with ReadGate's agent hooks on, VS Code runs ReadGate's hook before and after each of its tool calls, in every workspace, and ReadGate judges each read and edit by the same rules as its own tools. The hook comes with ReadGate; nothing is written to your repository or to your own hook files. Or run \"ReadGate: Create a Guarded Agent\" for a custom agent whose only edit tools are ReadGate's: it gets ReadGate's placeholders for repeated reads, re-reads that bring only what changed, and writes that keep every other byte. Extensions call ReadGate's tools with vscode.lm.invokeTool, or use its extension API.",
    blocks: [],
    notes: [
      ...COPILOT_OWN_TOOLS,
      'Nothing to set for a long review: VS Code has no timeout setting for tool calls, and a call waits until your review ends or you stop the chat request. A hooked call waits up to 14 minutes, then is denied as not reviewed.',
    ],
    action: {
      id: 'enableAgentHooks',
      label: "Guard Copilot's Own Tools",
      done: input.agentHooks === true,
      doneText: "ReadGate judges Copilot's own tools in every workspace (readgate.agentHooks.enabled is on).",
      docText: "Run **ReadGate: Guard Copilot's Own Tools**, or turn on `readgate.agentHooks.enabled` in your user settings.",
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The page's style, in VS Code's theme colours and fonts. */
const PAGE_STYLE = `body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 20px 40px; max-width: 920px; }
h1 { font-size: 1.5em; font-weight: 600; }
h2 { font-size: 1.15em; font-weight: 600; margin-top: 1.6em; border-bottom: 1px solid var(--vscode-panel-border); padding-bottom: 4px; }
.status { padding: 6px 10px; border-left: 3px solid var(--vscode-textLink-foreground); background: var(--vscode-textBlockQuote-background); }
.block { position: relative; margin: 8px 0 14px; }
.caption { margin: 4px 0; color: var(--vscode-descriptionForeground); }
pre { background: var(--vscode-textCodeBlock-background); padding: 8px 84px 8px 10px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; border-radius: 3px; }
code { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
pre code { background: none; }
button.action { position: static; padding: 5px 14px; }
button { position: absolute; right: 6px; bottom: 6px; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent); padding: 3px 10px; cursor: pointer; border-radius: 2px; }
button:hover { background: var(--vscode-button-hoverBackground); }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.note { color: var(--vscode-descriptionForeground); }
.guarded li { margin: 4px 0; }
`;

/**
 * The page: every text escaped; one Copy button per block (the script posts its index). A code block's code has
 * no background of its own: VS Code's default styles give inline code one, and inside a pre each line of it was
 * painted over the bottom of the line above, hiding its underscores ("[mcp servers.readgate]").
 */
export function connectPageHtml(sections: readonly GuideSection[], options: { cspSource: string; nonce: string; running: boolean }): string {
  const csp = [`default-src 'none'`, `style-src 'nonce-${options.nonce}'`, `script-src 'nonce-${options.nonce}'`].join('; ');
  let index = 0;
  const body = sections
    .map((section) => {
      const blocks = section.blocks
        .map((block) => {
          const id = index++;
          return `<div class="block"><p class="caption">${escapeHtml(block.caption)}</p><pre><code>${escapeHtml(block.display ?? block.text)}</code></pre><button data-copy="${id}" aria-label="Copy: ${escapeHtml(block.caption)}">Copy</button></div>`;
        })
        .join('');
      const notes = section.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('');
      const { action } = section;
      const offer = !action
        ? ''
        : action.done
          ? `<p class="status">${escapeHtml(action.doneText)}</p>`
          : `<p><button class="action" data-action="${escapeHtml(action.id)}">${escapeHtml(action.label)}</button></p>`;
      return `<section id="${escapeHtml(section.id)}"><h2>${escapeHtml(section.title)}</h2><p>${escapeHtml(section.intro)}</p>${offer}${blocks}${notes}</section>`;
    })
    .join('');
  const status = options.running
    ? "ReadGate's MCP server runs in this window (127.0.0.1 only, behind a secret token)."
    : "ReadGate's MCP server is off: turn on readgate.mcp.enabled (user settings) for agents to connect.";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>ReadGate: Connect an External Agent</title>
<style nonce="${options.nonce}">
${PAGE_STYLE}</style>
</head>
<body>
<h1>Connect an External Agent</h1>
<p class="status">${escapeHtml(status)}</p>
${body}
<section id="waiting"><h2>While a change waits for your review</h2><p>${escapeHtml(WAITING_FOR_REVIEW)}</p></section>
<section id="guarded"><h2>What is guarded, and what is not</h2><ul class="guarded">${NOT_GUARDED.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></section>
<script nonce="${options.nonce}">
const vscode = acquireVsCodeApi();
for (const button of document.querySelectorAll('button[data-action]')) {
  button.addEventListener('click', () => vscode.postMessage({ type: 'action', id: button.dataset.action }));
}
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', () => {
    vscode.postMessage({ type: 'copy', index: Number(button.dataset.copy) });
    button.textContent = 'Copied';
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
}
</script>
</body>
</html>`;
}

/** The blocks in page order (what a Copy button's index names). */
export function blocksOf(sections: readonly GuideSection[]): GuideBlock[] {
  return sections.flatMap((section) => section.blocks);
}
