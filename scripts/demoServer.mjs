// The demo VS Code that `npm start` serves, as a function the browser walkthrough test (test/e2e) starts too:
// code-server (VS Code 1.139.1) with the packed extension installed, the demo settings (demoSettings.mjs) and a
// fresh copy of demo/ open, on 127.0.0.1. Its state (user settings, extensions, a private HOME) lives in
// `stateDir`. ReadGate's own home (MCP discovery, the bridge) is not under that HOME: it is the user's, or
// `readgateHome` when given (tests), so agents in the user's terminals find the window.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hermeticEnv, killProcessGroup, waitForHttp } from '../test/harness/driver.mjs';
import { demoSettings } from './demoSettings.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** ReadGate's home as src/mcp/discovery.ts decides it: READGATE_HOME, else `.readgate` in the user's home from the user database. */
export function readgateHomeOf(env = process.env) {
  if (env.READGATE_HOME) return env.READGATE_HOME;
  let home;
  try {
    home = os.userInfo().homedir;
  } catch {
    home = undefined;
  }
  return path.join(home || os.homedir(), '.readgate');
}

/** Writes the demo settings over what an earlier run left; returns a note when it had to start afresh. */
function writeSettings(file) {
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  const { settings, replaced } = demoSettings(existing);
  if (replaced) fs.copyFileSync(file, `${file}.unreadable`);
  fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
  return replaced ? `${path.basename(file)} was not plain JSON; it was kept as ${path.basename(file)}.unreadable and written afresh` : undefined;
}

/** Runs a child quietly: its output only shows when it fails. */
function quietly(command, args, options) {
  try {
    execFileSync(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (error) {
    throw new Error(`${path.basename(args[0] ?? command)} failed:\n${`${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n')}`);
  }
}

/**
 * Starts the demo server; resolves once it answers.
 * @param {{ vscode: { node: string, codeServerEntry: string }, stateDir: string, vsix: string, port: number,
 *   readgateHome?: string, env?: Record<string, string> }} options
 */
export async function startDemoServer(options) {
  const { vscode, stateDir, port } = options;
  fs.mkdirSync(stateDir, { recursive: true });
  // A fresh copy of demo/, so trying edits never changes the repository.
  const workspace = path.join(stateDir, 'demo');
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.cpSync(path.join(root, 'demo'), workspace, { recursive: true });

  const userDir = path.join(stateDir, 'user-data');
  const extensionsDir = path.join(stateDir, 'extensions');
  fs.mkdirSync(path.join(userDir, 'User'), { recursive: true });
  const settingsNote = writeSettings(path.join(userDir, 'User/settings.json'));
  const configFile = path.join(stateDir, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  const env = { ...process.env, ...hermeticEnv(stateDir), VSCODE_IPC_HOOK_CLI: '', ...options.env };
  if (options.readgateHome) env.READGATE_HOME = options.readgateHome;
  const common = ['--config', configFile, '--user-data-dir', userDir, '--extensions-dir', extensionsDir];

  quietly(vscode.node, [vscode.codeServerEntry, ...common, '--install-extension', options.vsix, '--force'], { env });

  const logFile = path.join(stateDir, 'server.log');
  const log = fs.openSync(logFile, 'w');
  const server = spawn(vscode.node, [
    vscode.codeServerEntry, ...common,
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--ignore-last-opened',
    workspace,
  ], { env, detached: true, stdio: ['ignore', log, log] }); // own process group: one kill reaches every helper
  fs.closeSync(log);
  let exited = false;
  server.on('exit', () => { exited = true; });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, () => exited);
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`,
    workspace,
    logFile,
    settingsNote,
    bridgePath: path.join(readgateHomeOf(env), 'mcp-bridge.js'),
    server,
    hasExited: () => exited,
    stop: () => killProcessGroup(server, () => exited),
  };
}
