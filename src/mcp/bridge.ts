/**
 * `dist/mcp-bridge.js`: what an external agent (Claude Code, Codex, Cline…) starts as a stdio MCP server. It
 * finds the VS Code window whose workspace holds its working folder (the discovery files) and relays every
 * message, unchanged, to that window's MCP server, so the agent's session is the window's: the same ledger,
 * the same review panel, the editors' unsaved text.
 *   node dist/mcp-bridge.js [--cwd <dir>] [--list]
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'path';
import { discoveryDir, listWindows, pickWindow } from './discovery';

function say(message: string): void {
  process.stderr.write(`readgate-mcp-bridge: ${message}\n`);
}

function argumentsOf(argv: readonly string[]): { cwd: string; list: boolean } | string {
  let cwd = process.cwd();
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--list') list = true;
    else if (argv[i] === '--cwd' && argv[i + 1]) cwd = path.resolve(argv[++i]);
    else return `Unknown argument ${JSON.stringify(argv[i])}. Usage: node mcp-bridge.js [--cwd <dir>] [--list]`;
  }
  return { cwd, list };
}

async function main(): Promise<number> {
  const args = argumentsOf(process.argv.slice(2));
  if (typeof args === 'string') return say(args), 2;
  const windows = listWindows();
  if (args.list) {
    process.stdout.write(`${JSON.stringify(windows.map(({ token: _, ...rest }) => rest), null, 2)}\n`);
    return 0;
  }
  const target = pickWindow(windows, args.cwd);
  if (!target) {
    say(
      windows.length === 0
        ? `no VS Code window with ReadGate's MCP server is running (looked in ${discoveryDir()}). Open the project in VS Code and run "ReadGate: Connect an External Agent…" there (it turns the server on).`
        : `no open VS Code window has ${args.cwd} in its workspace. Open windows: ${windows.map((w) => w.folders.join(', ') || '(no folder)').join('; ')}. Start the agent inside one of them, or pass --cwd <folder>.`,
    );
    return 1;
  }
  say(`relaying to the VS Code window "${target.name}" (${target.folders.join(', ')})`);
  const upstream = new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } });
  const downstream = new StdioServerTransport();
  let closing = false;
  const finish = async (reason?: string): Promise<void> => {
    if (closing) return;
    closing = true;
    if (reason) say(reason);
    await upstream.terminateSession().catch(() => undefined);
    await Promise.allSettled([upstream.close(), downstream.close()]);
    process.exit(reason ? 1 : 0);
  };
  downstream.onmessage = (message: JSONRPCMessage) => {
    upstream.send(message).catch((error: unknown) => {
      const why = `the VS Code window did not take the message (${error instanceof Error ? error.message : String(error)}); is it still open?`;
      if (isJSONRPCRequest(message)) void downstream.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `ReadGate: ${why}` } });
      else say(why);
    });
  };
  upstream.onmessage = (message: JSONRPCMessage) => {
    // The protocol version the window agreed to travels on every later HTTP request, as a client would send it.
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (typeof result?.protocolVersion === 'string') upstream.setProtocolVersion(result.protocolVersion);
    void downstream.send(message);
  };
  upstream.onerror = (error) => say(`connection to the window: ${error.message}`);
  downstream.onclose = () => void finish();
  process.stdin.on('end', () => void finish());
  await upstream.start();
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
