/**
 * Child program: a History from the built bundle records one change in a folder and lists what it has, printing
 * each outcome and every warning it logged as JSON lines, then "done". Used to run the history as another user
 * (node historyCalls.js <core.js> <history dir>). Built-ins only, so it can be copied where that user can read it.
 */
type Core = typeof import('../../../../src/core/index');

export {}; // a module, not a script: its names stay its own

async function main(): Promise<void> {
  const [corePath, dir] = process.argv.slice(2);
  const core = require(corePath) as Core;
  const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);
  const noop = (): void => undefined;
  const logger = { trace: noop, debug: noop, info: noop, error: noop, warn: (message: string, data?: Record<string, unknown>) => print({ warn: message, data }) };
  const history = core.createHistory({ dir, logger });
  const before = new Uint8Array(Buffer.from('one\n'));
  const after = new Uint8Array(Buffer.from('two\n'));
  const recorded = await history.record({ sessionId: 's', label: 'child', surface: 'api', tool: 'readgate_edit', approvedBy: 'approver', files: [{ path: 'f', kind: 'edit', before, after }] });
  print({ recorded: recorded ?? null });
  print({ listed: (await history.list()).length });
  process.stdout.write('done\n');
}

main().catch((error) => {
  process.stderr.write(`historyCalls threw: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
