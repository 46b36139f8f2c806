// `npm start`: builds and packs the extension, installs it into the bundled VS Code (code-server, VS Code
// 1.139.1), and serves that VS Code on 127.0.0.1 with a fresh copy of the demo workspace. Ctrl+C stops it.
// State (user settings, installed extension, a private HOME) lives in .vscode-test/start/, git-ignored.
//   READGATE_PORT=<port>   port to serve on (default 8080, or a free one when that is taken)
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHeadlessVSCode } from '../test/harness/vscodeInstall.mjs';
import { DEFAULT_USER_SETTINGS, freePort, hermeticEnv, killProcessGroup, waitForHttp } from '../test/harness/driver.mjs';
import { packageVsix } from './package.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function say(message) {
  process.stdout.write(`[start] ${message}\n`);
}

async function choosePort() {
  const wanted = Number(process.env.READGATE_PORT || 8080);
  const net = await import('node:net');
  const free = await new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(wanted, '127.0.0.1', () => server.close(() => resolve(true)));
  });
  return free ? wanted : freePort();
}

async function main() {
  const vscode = ensureHeadlessVSCode();
  const stateDir = path.join(vscode.root, 'start');
  const vsix = packageVsix(path.join(stateDir, 'readgate.vsix'));

  // A fresh copy of demo/, so trying edits never changes the repository.
  const workspace = path.join(stateDir, 'demo');
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.cpSync(path.join(root, 'demo'), workspace, { recursive: true });

  const userDir = path.join(stateDir, 'user-data');
  const extensionsDir = path.join(stateDir, 'extensions');
  fs.mkdirSync(path.join(userDir, 'User'), { recursive: true });
  const settingsFile = path.join(userDir, 'User/settings.json');
  if (!fs.existsSync(settingsFile)) fs.writeFileSync(settingsFile, JSON.stringify(DEFAULT_USER_SETTINGS, null, 2));
  const configFile = path.join(stateDir, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  const env = { ...process.env, ...hermeticEnv(stateDir), VSCODE_IPC_HOOK_CLI: '' };
  const common = ['--config', configFile, '--user-data-dir', userDir, '--extensions-dir', extensionsDir];

  say('installing the extension into the bundled VS Code');
  execFileSync(vscode.node, [vscode.codeServerEntry, ...common, '--install-extension', vsix, '--force'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });

  const port = await choosePort();
  const server = spawn(vscode.node, [
    vscode.codeServerEntry, ...common,
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--ignore-last-opened',
    workspace,
  ], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = fs.createWriteStream(path.join(stateDir, 'server.log'));
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  let exited = false;
  server.on('exit', (code, signal) => {
    exited = true;
    if (!stopping) {
      console.error(`[start] VS Code stopped unexpectedly (code ${code}, signal ${signal}); see ${path.relative(process.cwd(), path.join(stateDir, 'server.log'))}`);
      process.exit(1);
    }
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping VS Code...');
    await killProcessGroup(server, () => exited);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  await waitForHttp(`http://127.0.0.1:${port}/healthz`, () => exited);
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  say(`VS Code ${'1.139.1'} with ReadGate is running. Open:\n\n    ${url}\n\nRun "ReadGate: Show Log" from the Command Palette to see ReadGate's decisions. Press Ctrl+C to stop.`);
}

main().catch((error) => {
  console.error(`[start] ${error && error.stack || error}`);
  process.exit(1);
});
