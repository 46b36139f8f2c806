/**
 * `dist/mcp-bridge.js`: what an external agent (Claude Code, Codex, Cline…) starts as a stdio MCP server. It
 * finds the VS Code window whose workspace holds its working folder (the discovery files) and relays every
 * message, unchanged, to that window's MCP server, so the agent's session is the window's: the same ledger,
 * the same review panel, the editors' unsaved text. When the window reloads (its session and port are gone),
 * the bridge finds it again and replays the agent's `initialize`, so the agent keeps working; the new session
 * has a fresh ledger, so the agent is asked to read again before editing. With no window for its folder yet, it
 * looks again at each message and answers requests with an error saying what to open, so the agent shows the
 * user why (a bridge that just exits shows only "failed to start").
 *
 * It ends the window's session (DELETE) when its input ends and on SIGINT, SIGTERM or SIGHUP: clients stop their
 * MCP servers with signals (Claude Code sends SIGINT, then SIGTERM), and a session left open stays live in the
 * window until it idles out. It exits within CLOSE_WITHIN_MS whatever the window does. The command line:
 * bridgeArguments.ts.
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { BRIDGE_USAGE, parseBridgeArguments } from './bridgeArguments';
import { discoveryDir, discoveryDirReason, listWindows, scanWindows, type WindowEntry } from './discovery';
import { pickWindow } from './windowChoice';
import { describeWindows } from './windowList';
import { requestForget } from './forget';
import { setupMain } from './setup/setupCommand';
import { StdioTransport } from './stdioTransport';

function say(message: string): void {
  process.stderr.write(`readgate-mcp-bridge: ${message}\n`);
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

/** How long closing waits for messages under way (an initialize still waiting for its session id). */
const SETTLE_MS = 1000;
/** The bridge exits this long after it was asked to end, whether or not the window answered. */
const CLOSE_WITHIN_MS = 3000;

class Relay {
  private upstream: StreamableHTTPClientTransport | undefined;
  private connecting: Promise<StreamableHTTPClientTransport> | undefined;
  private initialize: JSONRPCMessage | undefined;
  /** Requests whose answer must not reach the agent: a replayed initialize. */
  private readonly swallowed = new Set<RequestId>();
  private replays = 0;
  private closing = false;
  /** Messages on their way to the window: the first one's answer names the session to end. */
  private readonly underWay = new Set<Promise<void>>();

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
    if (this.closing) throw new Error('the bridge is closing');
    const relayed = this.relay(message);
    this.underWay.add(relayed);
    try {
      await relayed;
    } finally {
      this.underWay.delete(relayed);
    }
  }

  private async relay(message: JSONRPCMessage): Promise<void> {
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

  /** Ends the window's session (once the messages under way have their answer's headers, or after SETTLE_MS). */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.race([Promise.allSettled(this.underWay), new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref())]);
    await this.upstream?.terminateSession().catch(() => undefined);
    await Promise.allSettled([this.upstream?.close(), this.downstream.close()]);
  }
}

/** Ends the session and exits, once, on the first of: the input's end, SIGINT, SIGTERM, SIGHUP, a broken output (the agent is gone). */
function endOnceAsked(relay: Relay, downstream: StdioTransport): void {
  let ending = false;
  const end = (): void => {
    if (ending) return;
    ending = true;
    // Bounded: a window that never answers the DELETE must not keep the agent's MCP server alive.
    setTimeout(() => process.exit(0), CLOSE_WITHIN_MS);
    void relay.close().finally(() => process.exit(0));
  };
  downstream.onclose = end;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, end);
  process.stdout.on('error', end);
}

function relayToWindow(cwd: string): Promise<void> {
  const windows = listWindows();
  if (!pickWindow(windows, cwd)) say(noWindow(windows, cwd));
  const downstream = new StdioTransport();
  downstream.onerror = (error) => say(error.message);
  const relay = new Relay(downstream, cwd);
  downstream.onmessage = (message: JSONRPCMessage) => {
    relay.toWindow(message).catch((error: unknown) => {
      const why =
        error instanceof NoWindow
          ? error.message
          : `the VS Code window did not take the message (${error instanceof Error ? error.message : String(error)}). Is it still open, with ReadGate's MCP server on?`;
      if (isJSONRPCRequest(message)) void downstream.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `ReadGate: ${why}` } });
      else say(why);
    });
  };
  endOnceAsked(relay, downstream);
  return downstream.start();
}

async function main(): Promise<number> {
  if (process.argv[2] === 'setup') return setupMain('bridge');
  const args = parseBridgeArguments(process.argv.slice(2), process.cwd());
  if (args.kind === 'help') return (process.stdout.write(`${BRIDGE_USAGE}\n`), 0);
  if (args.kind === 'error') return (say(`${args.message}\n\n${BRIDGE_USAGE}`), 2);
  if (args.kind === 'forget') {
    // The window watches these markers: at its next tool call it forgets what that client's sessions had read.
    requestForget({ folder: args.cwd, ...(args.client ? { client: args.client } : {}), time: Date.now() });
    say(`asked the VS Code windows for ${args.cwd} to forget what ${args.client ?? 'every agent'} had read`);
    return 0;
  }
  if (args.kind === 'list') {
    const scan = scanWindows();
    process.stdout.write(describeWindows({ dir: discoveryDir(), dirReason: discoveryDirReason(), scan, cwd: args.cwd }));
    // A script (or a person's `&&`) learns from the status that an agent started here would reach no window.
    return pickWindow(scan.windows, args.cwd) ? 0 : 1;
  }
  await relayToWindow(args.cwd);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code; // not exit(): what was written to stdout (--help, --list) is flushed first
  },
  (error: unknown) => {
    say(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
