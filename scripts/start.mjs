// `npm start`: builds and packs the extension, and serves the demo VS Code (demoServer.mjs: code-server's VS Code
// 1.139.1 with the extension installed and a fresh copy of demo/ open) on 127.0.0.1. Ctrl+C stops it. State
// (user settings, installed extension, a private HOME) lives in .vscode-test/start/, git-ignored. The build's
// own output shows only when it fails, so the last lines are what to do next.
//   READGATE_PORT=<port>        port to serve on (default 8080, or a free one when that is taken)
//   READGATE_START_DIR=<dir>    where its state lives (the browser walkthrough test runs it hermetically)
//   READGATE_HOME=<dir>         ReadGate's home for MCP discovery and the bridge (default: ~/.readgate of the user)
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHeadlessVSCode } from '../test/harness/vscodeInstall.mjs';
import { freePort } from '../test/harness/driver.mjs';
import { startDemoServer } from './demoServer.mjs';
import { packageVsix } from './package.mjs';

function say(message) {
  process.stdout.write(`[start] ${message}\n`);
}

async function choosePort() {
  const wanted = Number(process.env.READGATE_PORT || 8080);
  const free = await new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(wanted, '127.0.0.1', () => server.close(() => resolve(true)));
  });
  return free ? wanted : freePort();
}

/** A path as one shell word. */
function shellWord(value) {
  return /^[\w@%+=:,./~-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The last lines `npm start` prints: where to go, how to begin, and how an agent in a terminal reaches the window. */
export function startBanner({ url, workspace, bridgePath }) {
  const bridge = `node ${shellWord(bridgePath)}`;
  const commands = [
    [`${bridge} --list`, 'the window it reaches, and why'],
    [`${bridge} setup claude-code`, 'Claude Code: its settings, then the line to run'],
  ];
  const width = Math.max(...commands.map(([command]) => command.length));
  return [
    'VS Code 1.139.1 with ReadGate is running. Open:',
    '',
    `    ${url}`,
    '',
    'Begin with "ReadGate: Get Started" in the Command Palette (F1): apply a sample patch, see a stale one',
    'refused, review a change and see what each session read. No language model is needed.',
    '',
    'Agents in another terminal (any terminal of this user) reach the window once the page is open:',
    '',
    `    cd ${shellWord(workspace)}`,
    ...commands.map(([command, why]) => `    ${command.padEnd(width)}   # ${why}`),
    '',
    '"ReadGate: Connect an External Agent…" shows the set-up for each agent. Press Ctrl+C to stop.',
  ].join('\n');
}

async function main() {
  const vscode = ensureHeadlessVSCode();
  const stateDir = process.env.READGATE_START_DIR ? path.resolve(process.env.READGATE_START_DIR) : path.join(vscode.root, 'start');
  say('building and packing the extension');
  const vsix = packageVsix(path.join(stateDir, 'readgate.vsix'), { quiet: true });
  say('starting VS Code');
  const demo = await startDemoServer({ vscode, stateDir, vsix, port: await choosePort() });
  let stopping = false;
  demo.server.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[start] VS Code stopped unexpectedly (code ${code}, signal ${signal}); see ${path.relative(process.cwd(), demo.logFile)}`);
    process.exit(1);
  });
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping VS Code...');
    await demo.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (demo.settingsNote) say(demo.settingsNote);
  process.stdout.write(`\n${startBanner(demo)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[start] ${error && error.stack || error}`);
    process.exit(1);
  });
}
