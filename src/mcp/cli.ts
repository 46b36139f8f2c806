/**
 * `dist/mcp.js`: the headless guard as a stdio MCP server. One guard, one ledger session for the process
 * (one agent conversation); every change is approved here, because the client's own permission prompt is the
 * review. Logs go to stderr: stdout carries the protocol.
 */
import * as fs from 'fs';
import { createGuard, parseToolCall } from '../core/index';
import { parseCliArguments, USAGE } from './cliArguments';
import { StdioTransport } from './stdioTransport';
import { READGATE_VERSION } from './toolDefinitions';
import { createToolServer } from './toolServer';

async function main(): Promise<number> {
  const parsed = parseCliArguments(process.argv.slice(2), process.cwd());
  if (parsed.kind === 'help') return void process.stdout.write(`${USAGE}\n`), 0;
  if (parsed.kind === 'version') return void process.stdout.write(`${READGATE_VERSION}\n`), 0;
  if (parsed.kind === 'error') return void process.stderr.write(`readgate-mcp: ${parsed.message}\n\n${USAGE}\n`), 2;
  const { roots, deny, dedup } = parsed.options;
  for (const root of roots) {
    if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) return void process.stderr.write(`readgate-mcp: --root ${root} is not a folder.\n`), 2;
  }
  const quiet = (): void => undefined;
  const loud = (message: string): void => void process.stderr.write(`readgate-mcp: ${message}\n`);
  const logger = { trace: quiet, debug: quiet, info: quiet, warn: loud, error: loud };
  const guard = createGuard({ roots, deny, dedup, logger });
  const session = guard.session('mcp:stdio');
  const server = createToolServer({
    call: async (name, input, signal) => {
      const call = parseToolCall(name, input);
      return call.ok ? call.run(session, signal) : call;
    },
  });
  // Errors of the transport (a message refused unread) and of the protocol: said on stderr, never fatal.
  server.onerror = (error) => loud(error.message);
  const transport = new StdioTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await server.connect(transport);
  await closed;
  guard.dispose();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`readgate-mcp: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
