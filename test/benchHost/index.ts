/**
 * `npm run bench:host`, inside the extension host (`extensionTestsPath`): measures the editor figures of the
 * performance targets, once with ReadGate loaded ("present") and once without ("absent"), in runs of the same
 * bundled VS Code started by bench/host.mjs. Writes its measurements as JSON to $READGATE_BENCH_RESULT.
 * Timings are measurements, never assertions.
 */
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Session } from 'inspector';
import { monitorEventLoopDelay } from 'perf_hooks';
import * as vscode from 'vscode';
import type { ScriptedModelApi } from '../fixtures/scriptedModel/scriptTypes';

const present = process.env.READGATE_BENCH_MODE === 'present';
const KEYSTROKES = 300;
const STORM_FILES = 2000;
const SESSION_FILES = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function root(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the benchmark needs a workspace folder');
  return folder.uri.fsPath;
}

interface ReadGateApi {
  openSession(options?: { id?: string; label?: string }): { read(uri: string, options?: { force?: boolean }): Promise<{ ok: boolean }>; dispose(): void };
}

async function activation(): Promise<{ activateMs?: number; api?: ReadGateApi }> {
  const extension = vscode.extensions.getExtension<ReadGateApi>('readgate.readgate');
  if (!extension) return {};
  // Nothing activates ReadGate before this (no activation event fires in an idle window): the time is its own
  // module load and activate().
  const before = extension.isActive;
  const started = performance.now();
  const api = await extension.activate();
  return { activateMs: before ? undefined : performance.now() - started, api };
}

/**
 * Time spent in the document-change listeners registered between `first` (before ReadGate activated) and `last`
 * (after): VS Code calls listeners in the order they were registered, so per event this is ReadGate's share
 * (nothing else registers in between; in the run without ReadGate it is the dispatch alone).
 */
class ListenerProbe {
  private firstAt = 0;
  readonly spans: number[] = [];
  private first?: vscode.Disposable;
  private last?: vscode.Disposable;
  armFirst(): void {
    this.first = vscode.workspace.onDidChangeTextDocument(() => {
      this.firstAt = performance.now();
    });
  }
  armLast(): void {
    this.last = vscode.workspace.onDidChangeTextDocument(() => {
      if (this.firstAt) this.spans.push(performance.now() - this.firstAt);
      this.firstAt = 0;
    });
  }
  dispose(): void {
    this.first?.dispose();
    this.last?.dispose();
  }
}
const probe = new ListenerProbe();

/** Host CPU per keystroke in a 5 MB document, and the time document-change listeners took per keystroke. */
async function keystrokes(): Promise<{ cpuUsPerKey: number; wallMsPerKey: number; listenerUsMean: number; listenerUsP99: number }> {
  const file = path.join(root(), 'big.txt');
  const line = `${'x'.repeat(99)}\n`;
  fs.writeFileSync(file, line.repeat(50_000));
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
  await sleep(1500);
  // Warm up, then measure.
  for (let i = 0; i < 20; i++) await editor.edit((edit) => edit.insert(new vscode.Position(25_000, 0), 'w'));
  await sleep(500);
  probe.spans.length = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < KEYSTROKES; i++) await editor.edit((edit) => edit.insert(new vscode.Position(25_000 + (i % 100), 0), 'k'));
  const wall = performance.now() - started;
  // Listeners that defer their work (timers) count too.
  await sleep(500);
  const used = process.cpuUsage(cpu);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  const spans = [...probe.spans].sort((a, b) => a - b);
  const listenerUsMean = (spans.reduce((sum, span) => sum + span, 0) / Math.max(1, spans.length)) * 1000;
  return { cpuUsPerKey: (used.user + used.system) / KEYSTROKES, wallMsPerKey: wall / KEYSTROKES, listenerUsMean, listenerUsP99: (spans[Math.floor(spans.length * 0.99)] ?? 0) * 1000 };
}

const toolText = (result: vscode.LanguageModelToolResult): string => result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

interface ReadFigures {
  toolMs: number;
  fsMs: number;
  /** The test fixture's tool that does nothing but return exactly the text readgate_read returned: VS Code's own cost of that tool call. */
  noopToolMs: number;
  /** The same tool with a progress message (`prepareInvocation`, which VS Code asks the extension host for), as readgate_read has: the floor. */
  preparedToolMs: number;
  /** The guarded read alone, in the extension host (an extension API session, `force`), without the tool round trip. */
  guardMs: number;
}

/**
 * readgate_read through lm.invokeTool against its floor: a tool that does no work and returns exactly the same
 * text through the same invokeTool, with a progress message as readgate_read has. Beside it, workspace.fs.readFile
 * of the same file, the same tool without the message, and the guarded read without a tool call.
 */
async function readRoundTrip(api: ReadGateApi): Promise<Record<string, ReadFigures>> {
  const results: Record<string, ReadFigures> = {};
  const session = api.openSession({ label: 'Benchmark reads' });
  const fixture = vscode.extensions.getExtension<ScriptedModelApi>('readgate-test.scripted-model');
  const listings = fixture?.isActive ? fixture.exports : await fixture?.activate();
  if (!listings) throw new Error('the benchmark needs the scripted-model fixture extension');
  for (const [name, bytes] of [['20 KB', 20_000], ['2 MB', 2_000_000]] as const) {
    const file = path.join(root(), `read-${name.replace(' ', '')}.txt`);
    fs.writeFileSync(file, `${'r'.repeat(79)}\n`.repeat(Math.ceil(bytes / 80)));
    const uri = vscode.Uri.file(file);
    const first = toolText(await vscode.lm.invokeTool('readgate_read', { input: { filePath: file }, toolInvocationToken: undefined }));
    // A call without a chat session stands alone: every later call returns this same text.
    listings.setListingText(first);
    const chars = first.length;
    const times: Record<keyof ReadFigures, number[]> = { toolMs: [], fsMs: [], noopToolMs: [], preparedToolMs: [], guardMs: [] };
    const time = async (figure: keyof ReadFigures, work: () => Thenable<unknown>): Promise<void> => {
      const t = performance.now();
      await work();
      times[figure].push(performance.now() - t);
    };
    for (let i = 0; i < 30; i++) {
      await time('fsMs', () => vscode.workspace.fs.readFile(uri));
      await time('toolMs', () => vscode.lm.invokeTool('readgate_read', { input: { filePath: file }, toolInvocationToken: undefined }));
      await time('noopToolMs', () => vscode.lm.invokeTool('readgate_test_listing', { input: { chars }, toolInvocationToken: undefined }));
      await time('preparedToolMs', () => vscode.lm.invokeTool('readgate_test_listing_prepared', { input: { chars }, toolInvocationToken: undefined }));
      await time('guardMs', () => session.read(file, { force: true }));
    }
    listings.setListingText(undefined);
    results[name] = Object.fromEntries(Object.entries(times).map(([figure, spans]) => [figure, median(spans.slice(5))])) as unknown as ReadFigures;
  }
  session.dispose();
  return results;
}

/** The two states of a file the problems benchmark flips between: clean, and one error. */
interface Flipping {
  name: 'TypeScript' | 'JSON';
  file: string;
  clean: string;
  broken: string;
}


/**
 * One agent edit as a chat agent's tool call makes it: a read (for the version it names), then the timed
 * `readgate_edit` that flips the file to `to`. Checks that the result says what the setting asks for: with the
 * problems section, the one new error or the one resolved; without, no section. Answers the edit's time and
 * whether a service was still checking when the section gave up.
 */
async function flip(target: Flipping, to: 'clean' | 'broken', section: boolean): Promise<{ ms: number; pending: boolean }> {
  const read = toolText(await vscode.lm.invokeTool('readgate_read', { input: { filePath: target.file }, toolInvocationToken: undefined }));
  const version = /· version ([0-9a-f]{16})/.exec(read)?.[1];
  const [oldString, newString] = to === 'broken' ? [target.clean, target.broken] : [target.broken, target.clean];
  const started = performance.now();
  const result = await vscode.lm.invokeTool('readgate_edit', { input: { filePath: target.file, oldString, newString, expectedVersion: version }, toolInvocationToken: undefined });
  const ms = performance.now() - started;
  const text = toolText(result);
  const pending = /was still checking/.test(text);
  const expected = !section ? !/Problems after this change/.test(text) : pending || (to === 'broken' ? /: 1 new problem \(/.test(text) : /resolved 1\./.test(text));
  if (!expected) throw new Error(`${target.name} edit to ${to} (problems section ${section ? 'on' : 'off'}) answered:\n${text}`);
  return { ms, pending };
}

/** Waits until TypeScript's server answers for a file, as it does in a project where it is already running. */
async function warmTypeScript(file: string): Promise<void> {
  // Its server is asked about open documents only; the benchmark's file itself is left closed, as an agent's is.
  const uri = vscode.Uri.file(path.join(path.dirname(file), 'warm.ts'));
  fs.writeFileSync(uri.fsPath, 'export const warm = 1;\n');
  await vscode.workspace.openTextDocument(uri);
  for (let i = 0; i < 225; i++) {
    const answer = await Promise.resolve(vscode.commands.executeCommand<{ success?: boolean }>('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file: uri })).then(undefined, () => undefined);
    if (answer?.success) return;
    await sleep(200);
  }
  throw new Error('TypeScript did not answer within 45 s');
}

interface ProblemsFigures {
  /** Median and p95 of the edit call, ms, with `readgate.problems.afterChange` "errors" and "off". */
  errors: { medianMs: number; p95Ms: number };
  off: { medianMs: number; p95Ms: number };
  samples: number;
  /** Calls whose section said the service was still checking (counted in the times). */
  pending: number;
}

const PROBLEM_ROUNDS = 40;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

/**
 * What the problems section adds to an agent's edit: `readgate_edit` on a TypeScript and a JSON file, each edit
 * flipping the file between clean and one error, in rounds that alternate the setting between "errors" and "off"
 * (each round breaks and fixes each file once); the first two rounds warm up and are not counted.
 */
async function problemsLatency(): Promise<Record<Flipping['name'], ProblemsFigures>> {
  const targets: Flipping[] = [
    { name: 'TypeScript', file: path.join(root(), 'problems.ts'), clean: 'export const flag: number = 1;', broken: "export const flag: number = '1';" },
    { name: 'JSON', file: path.join(root(), 'problems.json'), clean: '"flag": 1 }', broken: '"flag": 1, }' },
  ];
  fs.writeFileSync(targets[0].file, `${targets[0].clean}\n`);
  fs.writeFileSync(targets[1].file, `{ ${targets[1].clean}\n`);
  await warmTypeScript(targets[0].file);
  const settings = vscode.workspace.getConfiguration('readgate');
  // No review: the time is the call's own.
  await settings.update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
  const times = new Map(targets.map((target) => [target.name, { errors: [] as number[], off: [] as number[], pending: 0 }]));
  for (let round = 0; round < PROBLEM_ROUNDS + 2; round++) {
    const setting = round % 2 === 0 ? 'errors' : 'off';
    await settings.update('problems.afterChange', setting, vscode.ConfigurationTarget.Global);
    await sleep(100);
    for (const target of targets) {
      for (const to of ['broken', 'clean'] as const) {
        const { ms, pending } = await flip(target, to, setting === 'errors');
        const figures = times.get(target.name)!;
        if (round < 2) continue;
        figures[setting].push(ms);
        if (pending) figures.pending++;
      }
    }
  }
  await settings.update('problems.afterChange', undefined, vscode.ConfigurationTarget.Global);
  await settings.update('approval.mode', undefined, vscode.ConfigurationTarget.Global);
  const summary = (xs: number[]) => ({ medianMs: median(xs), p95Ms: p95(xs) });
  return Object.fromEntries([...times].map(([name, figures]) => [name, { errors: summary(figures.errors), off: summary(figures.off), samples: figures.errors.length, pending: figures.pending }])) as Record<Flipping['name'], ProblemsFigures>;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@readgate.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe' });
}

/** Event-loop delay p99 of the host while git checks out 2,000 changed files (a 1,000-file session and the Sessions view open when present). */
async function storm(api: ReadGateApi | undefined): Promise<{ p99Ms: number; maxMs: number }> {
  const repo = path.join(root(), 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q');
  const files = Array.from({ length: STORM_FILES }, (_, i) => path.join(repo, `f${i}.txt`));
  for (const file of files) fs.writeFileSync(file, 'line\n'.repeat(40));
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'a');
  git(repo, 'checkout', '-q', '-b', 'other');
  for (const file of files) fs.writeFileSync(file, 'line\n'.repeat(39) + 'changed\n');
  git(repo, 'commit', '-q', '-am', 'b');
  git(repo, 'checkout', '-q', 'main');
  const session = api?.openSession({ id: 'bench-storm', label: 'Benchmark session' });
  if (session) for (const file of files.slice(0, SESSION_FILES)) await session.read(file);
  if (api) await vscode.commands.executeCommand('workbench.view.extension.readgate');
  await sleep(3000);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['checkout', '-q', 'other'], { cwd: repo, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
  // The watcher's events and whatever they cause arrive over the next seconds.
  await sleep(6000);
  delay.disable();
  session?.dispose();
  return { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 };
}

/**
 * Runs `work` under the V8 profiler when READGATE_BENCH_PROFILE names a folder, and writes `<name>.cpuprofile`
 * there (open it in a browser's performance panel): where a figure's time goes, without changing what is measured.
 */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.READGATE_BENCH_PROFILE;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  const post = (method: string) => new Promise<unknown>((resolve, reject) => session.post(method, (error, answer) => (error ? reject(error) : resolve(answer))));
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}-${process.env.READGATE_BENCH_MODE ?? 'run'}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

export async function run(): Promise<void> {
  const result: Record<string, unknown> = { mode: present ? 'present' : 'absent', node: process.version };
  probe.armFirst();
  const { activateMs, api } = present ? await activation() : {};
  probe.armLast();
  if (present && !api) throw new Error('ReadGate did not activate');
  result.activateMs = activateMs;
  result.keystrokes = await keystrokes();
  if (api) result.read = await profiled('read', () => readRoundTrip(api));
  if (api) result.problems = await problemsLatency();
  result.storm = await storm(api);
  fs.writeFileSync(process.env.READGATE_BENCH_RESULT as string, JSON.stringify(result));
  // The harness wants the runner's counts, as from the test suite.
  if (process.env.READGATE_TEST_RESULT) fs.writeFileSync(process.env.READGATE_TEST_RESULT, JSON.stringify({ passes: 1, failures: 0, pending: 0, tests: 1 }));
}
