/**
 * `ReadGate: Connect an External Agent…` (offers to turn the MCP server on, then shows the set-up per agent,
 * each block copyable), `ReadGate: Create a Guarded Agent` (writes a custom agent for Copilot's agent mode
 * whose tools are ReadGate's) and `ReadGate: Guard Copilot's Own Tools` (turns the agent hooks on).
 */
import { COMMAND_IDS } from '../commandIds';
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { blocksOf, connectGuide, connectPageHtml, type GuideSection } from '../mcp/connectGuide';
import { guardedAgentFile } from '../mcp/guardedAgent';
import type { McpServerControl } from '../mcp/mcpEndpoint';
import type { Config } from '../config';
import type { Log } from '../log';
import type { Command, CommandManager } from './commandManager';

export interface ConnectArgs {
  /** Turn the server on without asking (tests, and links that already asked). */
  enable?: boolean;
}

class ConnectPanel {
  private panel: vscode.WebviewPanel | undefined;
  private sections: GuideSection[] = [];

  constructor(
    private readonly control: McpServerControl,
    private readonly config: Config,
  ) {}

  show(): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('readgate.connect', 'ReadGate: Connect an External Agent', vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage(async (message: { type?: unknown; index?: unknown; id?: unknown }) => {
        if (message?.type === 'action' && message.id === 'enableAgentHooks') return void vscode.commands.executeCommand(COMMAND_IDS.enableAgentHooks);
        if (message?.type !== 'copy' || typeof message.index !== 'number') return;
        const block = blocksOf(this.sections)[message.index];
        if (!block) return;
        await vscode.env.clipboard.writeText(block.text);
        void vscode.window.setStatusBarMessage(`ReadGate: copied "${block.caption.replace(/:$/, '')}"`, 3000);
      });
    } else {
      this.panel.reveal();
    }
    this.render();
  }

  render(): void {
    if (!this.panel) return;
    const endpoint = this.control.endpoint;
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file')?.uri.fsPath;
    this.sections = connectGuide({
      bridgePath: this.control.bridgePath,
      discoveryDir: this.control.discoveryDir,
      headlessPath: this.control.headlessPath,
      endpoint,
      folder,
      agentHooks: this.config.current.agentHooksEnabled,
    });
    this.panel.webview.html = connectPageHtml(this.sections, {
      cspSource: this.panel.webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      running: endpoint !== undefined,
    });
  }

  /** The sections shown (for the integration tests). */
  get shown(): GuideSection[] | undefined {
    return this.panel ? this.sections : undefined;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

async function connect(control: McpServerControl, panel: ConnectPanel, args: ConnectArgs | undefined): Promise<GuideSection[] | undefined> {
  if (!control.endpoint) {
    const turnOn = 'Turn On';
    const answer =
      args?.enable === true
        ? turnOn
        : await vscode.window.showInformationMessage(
            "Turn on ReadGate's MCP server?",
            {
              modal: true,
              detail:
                'External agents (Claude Code, Codex, Cline) then read and edit through ReadGate in every VS Code window, with the same checks and review. The server listens on 127.0.0.1 only, behind a secret token per window. You can turn it off with the setting readgate.mcp.enabled.',
            },
            turnOn,
          );
    if (answer !== turnOn) return undefined;
    const endpoint = await control.enable();
    if (!endpoint) {
      void vscode.window.showErrorMessage('ReadGate could not start its MCP server; see "ReadGate: Show Log". The set-up below works once it runs.');
    }
  }
  panel.show();
  return panel.shown;
}

async function createGuardedAgent(log: Log): Promise<string | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(
    (folder) => folder.uri.scheme === 'file' || vscode.workspace.fs.isWritableFileSystem(folder.uri.scheme),
  );
  if (folders.length === 0) {
    void vscode.window.showErrorMessage(
      "Open a folder first: the guarded agent is written into the workspace (.github/agents), where Copilot's agent mode finds it.",
    );
    return undefined;
  }
  const folder = folders.length === 1 ? folders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which folder gets the guarded agent?' });
  if (!folder) return undefined;
  const file = guardedAgentFile(vscode.version);
  const uri = vscode.Uri.joinPath(folder.uri, ...file.path.split('/'));
  let exists = true;
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    exists = false;
  }
  if (exists) {
    const replace = 'Replace';
    const answer = await vscode.window.showWarningMessage(`${file.path} exists. Replace it with ReadGate's guarded agent?`, { modal: true }, replace);
    if (answer !== replace) return undefined;
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(file.content));
  log.info(`[agents] wrote the guarded ${file.kind} ${uri.fsPath}`);
  await vscode.window.showTextDocument(uri, { preview: false });
  void vscode.window.showInformationMessage(
    `ReadGate wrote a ${file.kind} "ReadGate" to ${file.path}. Pick "ReadGate" in the chat view's agent picker: its edits go through ReadGate's review, and it has no terminal.`,
  );
  return uri.toString();
}

/** Offers to turn the MCP server on, then shows the set-up per agent; its page follows the server's endpoint and the settings. */
export class ConnectExternalAgentCommand implements Command, vscode.Disposable {
  static readonly id = COMMAND_IDS.connectExternalAgent;
  readonly id = ConnectExternalAgentCommand.id;
  private readonly panel: ConnectPanel;
  private readonly endpointChanges: vscode.Disposable;
  private readonly settingChanges: vscode.Disposable;

  constructor(
    private readonly control: McpServerControl,
    config: Config,
  ) {
    this.panel = new ConnectPanel(control, config);
    this.endpointChanges = control.onDidChangeEndpoint(() => this.panel.render());
    this.settingChanges = config.onDidChange(() => this.panel.render());
  }

  execute(args?: ConnectArgs): Promise<GuideSection[] | undefined> {
    return connect(this.control, this.panel, args);
  }

  dispose(): void {
    this.panel.dispose();
    this.endpointChanges.dispose();
    this.settingChanges.dispose();
  }
}

export class CreateGuardedAgentCommand implements Command {
  static readonly id = COMMAND_IDS.createGuardedAgent;
  readonly id = CreateGuardedAgentCommand.id;

  constructor(private readonly log: Log) {}

  execute(): Promise<string | undefined> {
    return createGuardedAgent(this.log);
  }
}

/** What turning the agent hooks on means, as the confirmation says it. */
export const AGENT_HOOKS_ON =
  "ReadGate now judges the file tools of VS Code's agents (Copilot's agent mode) in every workspace: an edit of lines the agent was not shown, or that changed since, is denied with what changed, and every allowed change is in Agent Changes. Terminal commands stay unguarded.";

/** Turns `readgate.agentHooks.enabled` on in the user's settings, and says what it guards. */
export class EnableAgentHooksCommand implements Command {
  static readonly id = COMMAND_IDS.enableAgentHooks;
  readonly id = EnableAgentHooksCommand.id;

  constructor(private readonly log: Log) {}

  async execute(): Promise<boolean> {
    await vscode.workspace.getConfiguration('readgate').update('agentHooks.enabled', true, vscode.ConfigurationTarget.Global);
    this.log.info("[agents] agent hooks turned on: Copilot's own tools are judged");
    const openSetting = 'Open the Setting';
    void vscode.window.showInformationMessage(AGENT_HOOKS_ON, openSetting).then((answer) => {
      if (answer === openSetting) void vscode.commands.executeCommand('workbench.action.openSettings', 'readgate.agentHooks.enabled');
    });
    return true;
  }
}

/** Registers the three commands; the returned Disposable closes the Connect page and stops following the endpoint. */
export function registerAgentCommands(commands: CommandManager, deps: { control: McpServerControl; log: Log; config: Config }): vscode.Disposable {
  const connect = commands.register(new ConnectExternalAgentCommand(deps.control, deps.config));
  commands.register(new CreateGuardedAgentCommand(deps.log));
  commands.register(new EnableAgentHooksCommand(deps.log));
  return connect;
}
