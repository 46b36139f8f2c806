/**
 * Child processes for real-fault tests: a guard (the built `dist/core.js`) running as another user, one that
 * is SIGKILLed mid-write, one that may hang on a FIFO, and the racing helpers that change the tree under a
 * guard. The child programs live in `children/` and use only Node built-ins, so they can be copied somewhere
 * another user can read. Every child started here is killed in a teardown if it is still running, and a child
 * that outlives its deadline is killed and reported as hung (no timed assertion: the deadline is generous).
 */
import { type ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { repoRoot } from './repoRoot';

/** The built headless library; `npm run build` makes it. */
export function coreBundle(): string {
  const core = path.join(repoRoot, 'dist/core.js');
  if (!fs.existsSync(core)) throw new Error(`${core} is missing: run npm run build first`);
  return core;
}

/** A compiled child program of `children/` (e.g. "writeLoop"). */
export function childProgram(name: string): string {
  const file = path.join(__dirname, 'children', `${name}.js`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run node esbuild.mjs --tests first`);
  return file;
}

export interface Identity {
  uid: number;
  gid: number;
}

const copies: string[] = [];

/**
 * `files` as paths `who` can read: each where it is when `who` can read it there, else a copy in a fresh
 * world-readable temp directory (a checkout under /root is not traversable by `nobody`). Also reports which.
 */
export function readableBy(who: Identity, files: string[]): { paths: string[]; copied: boolean } {
  const probe = spawnSync(process.execPath, ['-e', 'for (const f of process.argv.slice(1)) require("fs").accessSync(f, require("fs").constants.R_OK)', ...files], {
    uid: who.uid,
    gid: who.gid,
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: 'ignore',
  });
  if (probe.error) throw new Error(`could not start ${process.execPath} as uid ${who.uid}: ${probe.error.message}`);
  if (probe.status === 0) return { paths: files, copied: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-child-code-'));
  copies.push(dir);
  fs.chmodSync(dir, 0o755);
  const paths = files.map((file, i) => {
    const copy = path.join(dir, `${i}-${path.basename(file)}`);
    fs.copyFileSync(file, copy);
    fs.chmodSync(copy, 0o644);
    return copy;
  });
  return { paths, copied: true };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the deadline passed and the child was killed. */
  hung: boolean;
}

export interface Child {
  process: ChildProcess;
  pid: number;
  /** Complete stdout lines so far. */
  lines(): string[];
  stderr(): string;
  /** Resolves with the first stdout line matching `match`; rejects if the child exits or `deadlineMs` passes first. */
  waitForLine(match: (line: string) => boolean, deadlineMs: number, what: string): Promise<string>;
  /** Waits for the exit; past `deadlineMs` the child is SIGKILLed and reported `hung`. */
  finished(deadlineMs: number): Promise<Finished>;
  /** SIGKILL now (no-op if it already exited); resolves once it is gone. */
  kill(): Promise<Finished>;
}

const running = new Set<Child>();

export interface SpawnOptions {
  args?: string[];
  as?: Identity;
  cwd?: string;
  env?: Record<string, string>;
}

/** Starts `node <program> ...args` (optionally as another user). */
export function startChild(program: string, options: SpawnOptions = {}): Child {
  const proc = spawn(process.execPath, [program, ...(options.args ?? [])], {
    cwd: options.cwd ?? os.tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.as ? { uid: options.as.uid, gid: options.as.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    proc.emit('readgate-line');
  });
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let hung = false;
  const exited = new Promise<void>((resolve) => {
    // 'close': the exit status and every byte of its output.
    proc.on('close', (code, signal) => {
      exitInfo = { code, signal };
      running.delete(child);
      resolve();
    });
    proc.on('error', (error) => {
      stderr += `\n[spawn error] ${error.message}`;
      exitInfo ??= { code: null, signal: null };
      running.delete(child);
      resolve();
    });
  });
  const result = (): Finished => ({ code: exitInfo?.code ?? null, signal: exitInfo?.signal ?? null, stdout, stderr, hung });
  const lines = (): string[] => {
    const all = stdout.split('\n');
    all.pop();
    return all;
  };
  const child: Child = {
    process: proc,
    pid: proc.pid ?? -1,
    lines,
    stderr: () => stderr,
    waitForLine(match, deadlineMs, what) {
      return new Promise<string>((resolve, reject) => {
        const check = (): boolean => {
          const line = lines().find(match);
          if (line === undefined) return false;
          done();
          resolve(line);
          return true;
        };
        const onExit = (): void => {
          if (check()) return;
          done();
          reject(new Error(`the child exited (${JSON.stringify(result())}) before ${what}`));
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`hung: no ${what} within ${deadlineMs} ms; stdout so far:\n${stdout.slice(-2000)}\nstderr:\n${stderr.slice(-2000)}`));
        }, deadlineMs);
        const done = (): void => {
          clearTimeout(timer);
          proc.off('readgate-line', check);
          proc.off('close', onExit);
        };
        proc.on('readgate-line', check);
        proc.on('close', onExit);
        if (exitInfo) onExit();
        else check();
      });
    },
    async finished(deadlineMs) {
      if (!exitInfo) {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<'deadline'>((resolve) => {
          timer = setTimeout(() => resolve('deadline'), deadlineMs);
        });
        const first = await Promise.race([exited, deadline]);
        clearTimeout(timer);
        if (first === 'deadline' && !exitInfo) {
          hung = true;
          proc.kill('SIGKILL');
          await exited;
        }
      }
      return result();
    },
    async kill() {
      if (!exitInfo) {
        proc.kill('SIGKILL');
        await exited;
      }
      return result();
    },
  };
  running.add(child);
  return child;
}

teardown(async () => {
  await Promise.all([...running].map((child) => child.kill()));
  for (const dir of copies.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
