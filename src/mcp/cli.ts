/**
 * `dist/mcp.js`: the headless guard as a stdio MCP server. One guard; a ledger session per agent context the
 * client's hooks name, else one for the connection (`headlessSessions.ts`), each with the client's result
 * budget (`clientProfiles.ts`); placeholders for contexts whose compaction is hooked, else only with
 * `--placeholders`. Every change is approved here, because the client's own permission prompt is the review.
 * `hook` is what the client's hooks run (`contextHook.ts`); `--forget` (from older set-ups' hooks) tells
 * running servers for the folder to forget what that client had read. `setup claude-code` writes an agent's
 * project settings for this server (src/mcp/setup). Logs go to stderr: stdout carries the protocol.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import { createGuard, parseToolCall } from '../core/index';
import { parseCliArguments, USAGE } from './cliArguments';
import { requestForget } from './forget';
import { HeadlessSessions } from './headlessSessions';
import { runHookGuard } from './hookGuard';
import { setupMain } from './setup/setupCommand';
import { StdioTransport } from './stdioTransport';
import { READGATE_VERSION } from './toolDefinitions';
import { createToolServer } from './toolServer';

const say = (message: string): void => void process.stderr.write(`readgate-mcp: ${message}\n`);

/**
 * The connection's session id: one stdio server process is one MCP session, and several servers may record into
 * one --history folder, at once or one after another; an id of its own keeps one server's revert off another's
 * changes. People see the label (the client's name), not the id.
 */
const SESSION_ID = `mcp:stdio:${randomUUID()}`;

async function main(): Promise<number> {
  if (process.argv[2] === 'setup') return setupMain('server');
  if (process.argv[2] === 'hook-guard') return runHookGuard(process.argv.slice(3));
  const parsed = parseCliArguments(process.argv.slice(2), process.cwd());
  if (parsed.kind === 'help') return (void process.stdout.write(`${USAGE}\n`), 0);
  if (parsed.kind === 'version') return (void process.stdout.write(`${READGATE_VERSION}\n`), 0);
  if (parsed.kind === 'error') return (void process.stderr.write(`readgate-mcp: ${parsed.message}\n\n${USAGE}\n`), 2);
  if (parsed.kind === 'forget') {
    requestForget({ ...parsed.options, time: Date.now() });
    say(`asked ReadGate's servers for ${parsed.options.folder} to forget what ${parsed.options.client ?? 'every client'} had read`);
    return 0;
  }
  const { roots, deny, dedup, placeholders, maxResultChars, history } = parsed.options;
  for (const root of roots) {
    if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) return (void process.stderr.write(`readgate-mcp: --root ${root} is not a folder.\n`), 2);
  }
  const quiet = (): void => undefined;
  const logger = { trace: quiet, debug: quiet, info: quiet, warn: say, error: say };
  const guard = createGuard({ roots, deny, dedup, logger, ...(history ? { history: { dir: history } } : {}) });
  const sessions = new HeadlessSessions(guard, {
    sessionId: SESSION_ID,
    folders: () => [...roots, process.cwd()],
    dedup,
    placeholders,
    ...(maxResultChars !== undefined ? { maxResultChars } : {}),
    say,
  });
  const server = createToolServer({
    call: async (name, input, signal, _progress, meta) => {
      const call = parseToolCall(name, input);
      return call.ok ? call.run(sessions.sessionFor(meta), signal) : call;
    },
    onClient: (client) => sessions.setClient(client),
  });
  // Errors of the transport (a message refused unread) and of the protocol: said on stderr, never fatal.
  server.onerror = (error) => say(error.message);
  const transport = new StdioTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  // A client that ends the server (stdin closed, or SIGTERM as SDK clients send) must not lose the record of a
  // change it just made: records are written after each change without holding up its answer, and dispose()
  // waits for them (bounded).
  const onSignal = (signal: NodeJS.Signals): void => void guard.dispose().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  await server.connect(transport);
  await closed;
  await guard.dispose();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`readgate-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
