/**
 * Child program: a guard with a change history (from the built bundle) that takes one command per stdin line
 * and answers each with one stdout line `{"id":…,"result":…}`, so a test can run several processes on one
 * history folder and interleave them exactly. Warnings the history logs are printed as `{"warn":…,"data":…}`.
 * Usage: node historyWorker.js <core.js> <config json>; config: { roots, dir, sessionId, label?, maxBytes? }.
 * Built-ins only, so it can be copied where another user can read it.
 */
import * as fs from 'fs';

type Core = typeof import('../../../../src/core/index');
type Guard = ReturnType<Core['createGuard']>;
type History = ReturnType<Core['createHistory']>;

export {}; // a module, not a script: its names stay its own

interface Config {
  roots: string[];
  dir: string;
  sessionId: string;
  label?: string;
  maxBytes?: number;
}

interface Command {
  id: number;
  op: string;
  [key: string]: unknown;
}

const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);
const noop = (): void => undefined;
const logger = { trace: noop, debug: noop, info: noop, error: noop, warn: (message: string, data?: Record<string, unknown>) => print({ warn: message, data }) };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A record as the tests compare it (no hunks). */
const brief = (record: { id: string; sessionId: string; time: number; previous?: string; files: { path: string; before: string | null; after: string | null }[] }) => ({
  id: record.id,
  sessionId: record.sessionId,
  time: record.time,
  previous: record.previous,
  files: record.files.map((file) => ({ path: file.path, before: file.before, after: file.after })),
});

class Worker {
  readonly history: History;
  readonly guard: Guard;

  constructor(
    private readonly core: Core,
    private readonly config: Config,
  ) {
    this.history = core.createHistory({ dir: config.dir, logger, ...(config.maxBytes ? { maxBytes: config.maxBytes } : {}) });
    this.guard = core.createGuard({ roots: config.roots, historyStore: this.history, logger });
  }

  private session() {
    return this.guard.session(this.config.sessionId, { surface: 'api', label: this.config.label ?? this.config.sessionId });
  }

  /** Reads the whole file (so the write may replace it) and writes `content`. */
  async write(path: string, content: string): Promise<unknown> {
    const session = this.session();
    if (fs.existsSync(path)) {
      const read = await session.read(path, { force: true });
      if (!read.ok) return { ok: false, code: read.code, message: read.message };
    }
    const written = fs.existsSync(path) ? await session.write(path, content) : await session.edit(path, [{ oldString: '', newString: content }]);
    return written.ok ? { ok: true } : { ok: false, code: written.code, message: written.message };
  }

  /** `count` writes of `<prefix><n>\n` in a row, as fast as the guard takes them; SIGKILL right after the last when `crash`. */
  async burst(path: string, count: number, prefix: string, crash: boolean): Promise<unknown> {
    for (let n = 1; n <= count; n++) {
      const result = (await this.write(path, `${prefix}${n}\n`)) as { ok: boolean };
      if (!result.ok) return result;
    }
    if (crash) process.kill(process.pid, 'SIGKILL');
    return { ok: true };
  }

  /** Opens a fresh guard on the same folder `times` times, every `everyMs`, and lists with each. */
  async openList(times: number, everyMs: number): Promise<unknown> {
    let listed = 0;
    for (let i = 0; i < times; i++) {
      const fresh = this.core.createGuard({ roots: this.config.roots, history: { dir: this.config.dir }, logger });
      listed += (await fresh.history()).length;
      await fresh.dispose();
      await sleep(everyMs);
    }
    return { ok: true, listed };
  }

  /** Every record a fresh history lists, and those whose contents it cannot give back. */
  async check(): Promise<unknown> {
    const fresh = this.core.createHistory({ dir: this.config.dir, logger });
    const records = await fresh.list();
    const broken: string[] = [];
    for (const record of records) if (!(await fresh.revertInput(record))) broken.push(record.id);
    return { records: records.map(brief), broken };
  }

  async run(command: Command): Promise<unknown> {
    const str = (key: string): string => String(command[key]);
    switch (command.op) {
      case 'write':
        return this.write(str('path'), str('content'));
      case 'burst':
        return this.burst(str('path'), Number(command.count), str('prefix'), command.crash === true);
      case 'list':
        return { records: (await this.guard.history(command.sessionId ? { sessionId: str('sessionId') } : {})).map(brief) };
      case 'openList':
        return this.openList(Number(command.times), Number(command.everyMs));
      case 'revert': {
        const result = await this.guard.revert(command.target as { changeId: string }, command.sessionId ? { sessionId: str('sessionId') } : {});
        return result.ok ? { ok: true, message: result.text } : { ok: false, code: result.code, message: result.message };
      }
      case 'check':
        return this.check();
      case 'configure':
        await this.history.configure({ maxBytes: Number(command.maxBytes) });
        return { ok: true };
      case 'flush':
        await this.history.flush();
        return { ok: true };
      case 'export': {
        const lines: string[] = [];
        try {
          const count = await this.guard.exportHistory((line) => void lines.push(line), { contents: command.contents === true });
          return { count, lines };
        } catch (error) {
          return { error: String((error as Error)?.message ?? error), lines };
        }
      }
      default:
        throw new Error(`unknown op ${command.op}`);
    }
  }
}

async function main(): Promise<void> {
  const [corePath, configJson] = process.argv.slice(2);
  const worker = new Worker(require(corePath) as Core, JSON.parse(configJson) as Config);
  let buffered = '';
  let chain = Promise.resolve();
  process.stdin.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const command = JSON.parse(buffered.slice(0, end)) as Command;
      buffered = buffered.slice(end + 1);
      // Commands run one after another, in the order sent.
      chain = chain.then(async () => {
        try {
          print({ id: command.id, result: await worker.run(command) });
        } catch (error) {
          print({ id: command.id, error: String((error as Error)?.stack ?? error) });
        }
      });
    }
  });
  process.stdin.on('end', () => void chain.then(() => worker.guard.dispose()));
  print({ ready: true });
}

main().catch((error) => {
  process.stderr.write(`historyWorker threw: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
