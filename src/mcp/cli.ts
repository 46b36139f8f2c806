/**
 * `dist/mcp.js`: the headless guard as a stdio MCP server. One guard, one ledger session for the process,
 * opened once the client said who it is, with that client's result budget (`clientProfiles.ts`); placeholders
 * only with `--placeholders`, as clients' subagents share the connection. Every change is approved here,
 * because the client's own permission prompt is the review. `--forget` (run from a client's hooks) tells
 * running servers for the folder to forget what that client had read. Logs go to stderr: stdout carries the
 * protocol.
 */
import * as fs from 'fs';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { createGuard, type GuardSession, parseToolCall } from '../core/index';
import { parseCliArguments, USAGE } from './cliArguments';
import { clientPolicy } from './clientProfiles';
import { ForgetWatch, mustForget, requestForget } from './forget';
import { StdioTransport } from './stdioTransport';
import { READGATE_VERSION } from './toolDefinitions';
import { clientLabel, createToolServer } from './toolServer';

const say = (message: string): void => void process.stderr.write(`readgate-mcp: ${message}\n`);

const SESSION_ID = 'mcp:stdio';

async function main(): Promise<number> {
  const parsed = parseCliArguments(process.argv.slice(2), process.cwd());
  if (parsed.kind === 'help') return void process.stdout.write(`${USAGE}\n`), 0;
  if (parsed.kind === 'version') return void process.stdout.write(`${READGATE_VERSION}\n`), 0;
  if (parsed.kind === 'error') return void process.stderr.write(`readgate-mcp: ${parsed.message}\n\n${USAGE}\n`), 2;
  if (parsed.kind === 'forget') {
    requestForget({ ...parsed.options, time: Date.now() });
    say(`asked ReadGate's servers for ${parsed.options.folder} to forget what ${parsed.options.client ?? 'every client'} had read`);
    return 0;
  }
  const { roots, deny, dedup, placeholders, maxResultChars, history } = parsed.options;
  for (const root of roots) {
    if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) return void process.stderr.write(`readgate-mcp: --root ${root} is not a folder.\n`), 2;
  }
  const quiet = (): void => undefined;
  const logger = { trace: quiet, debug: quiet, info: quiet, warn: say, error: say };
  const guard = createGuard({ roots, deny, dedup, logger, ...(history ? { history: { dir: history } } : {}) });
  const forget = new ForgetWatch(() => [...roots, process.cwd()]);
  let clientName: string | undefined;
  let clientVersion: Implementation | undefined;
  let session: GuardSession | undefined;
  let opened = 0;
  // Opened at the first call, when the client has said who it is: its budget is fixed for the session.
  const sessionNow = (): GuardSession => {
    for (const marker of forget.newMarkers()) {
      if (session && mustForget(marker, clientName, opened)) {
        session.clear();
        say(`forgot what ${clientName ?? 'the client'} had read (its context was compacted or cleared)`);
      }
    }
    if (session) return session;
    const policy = clientPolicy(clientName, { maxResultChars, placeholders, env: process.env, howToRaise: 'the server\'s --max-read-chars option' });
    opened = Date.now();
    // Its changes are recorded as the client's (surface 'mcp', labelled with the name it gave).
    session = guard.session(SESSION_ID, { dedup: dedup && policy.placeholders, resultBudget: policy.budget, surface: 'mcp', label: clientLabel(clientVersion) ?? 'MCP client' });
    return session;
  };
  const server = createToolServer({
    call: async (name, input, signal) => {
      const call = parseToolCall(name, input);
      return call.ok ? call.run(sessionNow(), signal) : call;
    },
    onClient: (client) => {
      clientName = client.name;
      clientVersion = client;
    },
  });
  // Errors of the transport (a message refused unread) and of the protocol: said on stderr, never fatal.
  server.onerror = (error) => say(error.message);
  const transport = new StdioTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  // A client that ends the server (stdin closed, or SIGTERM as SDK clients send) must not lose the record of a
  // change it just made: records are written after each change without holding up its answer, so wait for them.
  const settled = (): Promise<unknown> => guard.history({ sessionId: SESSION_ID }).catch(() => undefined);
  const onSignal = (signal: NodeJS.Signals): void => void settled().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  await server.connect(transport);
  await closed;
  await settled();
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
