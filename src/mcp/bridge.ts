/**
 * `dist/mcp-bridge.js`: what an external agent (Claude Code, Codex, Cline…) starts as a stdio MCP server. It
 * finds the VS Code window whose workspace holds its working folder (the discovery files) and relays every
 * message, unchanged, to that window's MCP server, so the agent's session is the window's: the same ledger,
 * the same review panel, the editors' unsaved text. When the window reloads (its session and port are gone),
 * the bridge finds it again and replays the agent's `initialize`, so the agent keeps working; the new session
 * has a fresh ledger, so the agent is asked to read again before editing. With no window for its folder yet, it
 * looks again at each message and answers requests with an error saying what to open, so the agent shows the
 * user why (a bridge that just exits shows only "failed to start").
 *   node dist/mcp-bridge.js [--cwd <dir>] [--list]   (--list: where it looks, the windows, and which one it would pick)
 *   node dist/mcp-bridge.js --forget [--client <name>] [--cwd <dir>]   (from a client's compaction hooks)
 *   node dist/mcp-bridge.js setup claude-code [--project <dir>] [--dry-run]   (an agent's project settings: src/mcp/setup)
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'path';
import { discoveryDir, discoveryDirReason, listWindows, scanWindows, type WindowEntry } from './discovery';
import { pickWindow } from './windowChoice';
import { describeWindows } from './windowList';
import { requestForget } from './forget';
import { setupMain } from './setup/setupCommand';
import { StdioTransport } from './stdioTransport';

function say(message: string): void {
  process.stderr.write(`readgate-mcp-bridge: ${message}\n`);
}

const USAGE = 'Usage: node mcp-bridge.js [--cwd <dir>] [--list] | --forget [--client <name>] [--cwd <dir>] | setup claude-code [--project <dir>] [--dry-run] (setup --help)';

function argumentsOf(argv: readonly string[]): { cwd: string; list: boolean; forget: boolean; client?: string } | string {
  let cwd = process.cwd();
  let list = false;
  let forget = false;
  let client: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--list') list = true;
    else if (argv[i] === '--forget') forget = true;
    else if (argv[i] === '--cwd' && argv[i + 1]) cwd = path.resolve(argv[++i]);
    else if (argv[i] === '--client' && argv[i + 1]) client = argv[++i];
    else return `Unknown argument ${JSON.stringify(argv[i])}. ${USAGE}`;
  }
  return { cwd, list, forget, ...(client ? { client } : {}) };
}

function noWindow(windows: readonly WindowEntry[], cwd: string): string {
  return windows.length === 0
    ? `no VS Code window with ReadGate's MCP server is running as this user (looked in ${discoveryDir()}; READGATE_HOME moves it, and VS Code and the agent must agree on it). Open the project in VS Code and run "ReadGate: Connect an External Agent…" there (it turns the server on); \`node mcp-bridge.js --list\` shows what the bridge sees.`
    : `no open VS Code window has ${cwd} in its workspace. Open windows: ${windows.map((w) => w.folders.join(', ') || '(no folder)').join('; ')}. Start the agent inside one of them, or pass --cwd <folder>.`;
}

/** No window serves the bridge's folder (yet): the message says what to do. */
class NoWindow extends Error {}

/** The session ended on the window's side (reload, or the server went off and on): worth finding it again. */
function isLostSession(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  const cause = (error as { cause?: { code?: string } })?.cause;
  return error instanceof TypeError || cause?.code === 'ECONNREFUSED' || cause?.code === 'ECONNRESET';
}

class Relay {
  private upstream: StreamableHTTPClientTransport | undefined;
  private connecting: Promise<StreamableHTTPClientTransport> | undefined;
  private initialize: JSONRPCMessage | undefined;
  /** Requests whose answer must not reach the agent: a replayed initialize. */
  private readonly swallowed = new Set<RequestId>();
  private replays = 0;
  private closing = false;

  constructor(
    private readonly downstream: StdioTransport,
    private readonly cwd: string,
  ) {}

  private async connect(target: WindowEntry): Promise<StreamableHTTPClientTransport> {
    const upstream = new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } });
    upstream.onmessage = (message) => this.fromWindow(message);
    upstream.onerror = (error) => {
      if (!this.closing) say(`connection to the window: ${error.message}`);
    };
    await upstream.start();
    return upstream;
  }

  private fromWindow(message: JSONRPCMessage): void {
    // The protocol version the window agreed to travels on every later HTTP request, as a client would send it.
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (typeof result?.protocolVersion === 'string') this.upstream?.setProtocolVersion(result.protocolVersion);
    const id = (message as { id?: RequestId }).id;
    if (id !== undefined && this.swallowed.delete(id)) return;
    void this.downstream.send(message);
  }

  async toWindow(message: JSONRPCMessage): Promise<void> {
    if (isInitializeRequest(message)) this.initialize = message;
    // Looked for again until one answers: the agent may have started before VS Code or before its server.
    this.connecting ??= this.firstConnection().finally(() => (this.connecting = undefined));
    this.upstream ??= await this.connecting;
    try {
      await this.upstream.send(message);
    } catch (error) {
      if (!this.initialize || message === this.initialize || !isLostSession(error) || !(await this.reconnect())) throw error;
      await this.upstream.send(message);
    }
  }

  /** Finds the window again (it may have a new port) and replays the agent's initialize. */
  private async reconnect(): Promise<boolean> {
    const target = pickWindow(listWindows(), this.cwd);
    if (!target || !this.initialize) return false;
    say(`the window's MCP session ended (reload?); reconnecting to "${target.name}"`);
    await this.upstream?.close().catch(() => undefined);
    this.upstream = await this.connect(target);
    const replay = { ...(this.initialize as object), id: `readgate-bridge-replay-${++this.replays}` } as JSONRPCMessage;
    this.swallowed.add((replay as { id: RequestId }).id);
    await this.upstream.send(replay);
    await this.upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return true;
  }

  private async firstConnection(): Promise<StreamableHTTPClientTransport> {
    const windows = listWindows();
    const target = pickWindow(windows, this.cwd);
    if (!target) throw new NoWindow(noWindow(windows, this.cwd));
    say(`relaying to the VS Code window "${target.name}" (${target.folders.join(', ')})`);
    return this.connect(target);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.upstream?.terminateSession().catch(() => undefined);
    await Promise.allSettled([this.upstream?.close(), this.downstream.close()]);
  }
}

async function main(): Promise<number> {
  if (process.argv[2] === 'setup') return setupMain('bridge');
  const args = argumentsOf(process.argv.slice(2));
  if (typeof args === 'string') return say(args), 2;
  if (args.forget) {
    // The window watches these markers: at its next tool call it forgets what that client's sessions had read.
    requestForget({ folder: args.cwd, ...(args.client ? { client: args.client } : {}), time: Date.now() });
    say(`asked the VS Code windows for ${args.cwd} to forget what ${args.client ?? 'every agent'} had read`);
    return 0;
  }
  if (args.list) {
    process.stdout.write(describeWindows({ dir: discoveryDir(), dirReason: discoveryDirReason(), scan: scanWindows(), cwd: args.cwd }));
    return 0;
  }
  const windows = listWindows();
  if (!pickWindow(windows, args.cwd)) say(noWindow(windows, args.cwd));
  const downstream = new StdioTransport();
  downstream.onerror = (error) => say(error.message);
  const relay = new Relay(downstream, args.cwd);
  downstream.onmessage = (message: JSONRPCMessage) => {
    relay.toWindow(message).catch((error: unknown) => {
      const why = error instanceof NoWindow ? error.message : `the VS Code window did not take the message (${error instanceof Error ? error.message : String(error)}). Is it still open, with ReadGate's MCP server on?`;
      if (isJSONRPCRequest(message)) void downstream.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `ReadGate: ${why}` } });
      else say(why);
    });
  };
  const finish = (): void => void relay.close().then(() => process.exit(0));
  downstream.onclose = finish;
  await downstream.start();
  return 0;
}

main().then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    say(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
