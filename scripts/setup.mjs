// Installs what this machine lacks for `npm test` or `npm start`, so those two commands work on a fresh
// machine: the Debian packages the headless VS Code needs, and the npm dependencies (npm ci) when
// node_modules is missing or older than package-lock.json. Uses Node built-ins only: it runs before
// node_modules exists.
//   node scripts/setup.mjs test    chromium (the workbench's browser) + libkrb5-dev (code-server's build)
//   node scripts/setup.mjs start   libkrb5-dev
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const purpose = process.argv[2] ?? 'test';
const DEBIAN_PACKAGES = {
  // g++, make and python3 build code-server's native modules; libkrb5-dev is for its `kerberos` module.
  start: ['libkrb5-dev', 'g++', 'make', 'python3'],
  test: ['libkrb5-dev', 'g++', 'make', 'python3', 'chromium'],
};

function say(message) {
  process.stdout.write(`[setup] ${message}\n`);
}

function isInstalled(pkg) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

function ensureDebianPackages(packages) {
  if (spawnSync('dpkg-query', ['--version']).error) {
    say(`not a Debian system: make sure these are installed: ${packages.join(', ')}`);
    return;
  }
  const missing = packages.filter((pkg) => !isInstalled(pkg));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? [] : ['sudo', '-n'];
  say(`installing Debian packages: ${missing.join(' ')}`);
  const apt = (args) => spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), ...args], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const update = apt(['update', '-qq']);
  const install = update.status === 0 ? apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]) : update;
  if (install.status !== 0) {
    console.error(`[setup] could not install ${missing.join(', ')}. Install them yourself: sudo apt-get install ${missing.join(' ')}`);
    process.exit(1);
  }
}

function lockHash() {
  return createHash('sha256').update(fs.readFileSync(path.join(root, 'package-lock.json'))).digest('hex');
}

function ensureNodeModules() {
  const stamp = path.join(root, 'node_modules/.readgate-lock-hash');
  const wanted = lockHash();
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return;
  // A fresh `npm ci` (as CI runs before `npm test`) leaves npm's hidden lockfile newer than ours.
  const hidden = path.join(root, 'node_modules/.package-lock.json');
  if (fs.existsSync(hidden) && fs.statSync(hidden).mtimeMs >= fs.statSync(path.join(root, 'package-lock.json')).mtimeMs) {
    fs.writeFileSync(stamp, wanted);
    return;
  }
  say('installing npm dependencies (npm ci)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(stamp, wanted);
}

ensureDebianPackages(DEBIAN_PACKAGES[purpose] ?? DEBIAN_PACKAGES.test);
ensureNodeModules();
