/**
 * Child program for the FIFO race: a guard reads and edits <root>/f.txt over and over for <ms> milliseconds,
 * then prints a JSON summary of what its calls returned. A call that blocks forever (opening a FIFO without
 * O_NONBLOCK) blocks this whole process, which the parent detects as a hang.
 * Usage: node fifoGuard.js <core.js> <root> <ms>.
 */
type Core = typeof import('../../../../src/core/index');

export {}; // a module, not a script: its names stay its own

async function main(): Promise<void> {
  const [corePath, root, ms] = process.argv.slice(2);
  const core = require(corePath) as Core;
  const session = core.createGuard({ roots: [root] }).session('fifo');
  const summary = { calls: 0, ok: 0, refused: {} as Record<string, number> };
  const count = (result: { ok: boolean; code?: string }): void => {
    summary.calls++;
    if (result.ok) summary.ok++;
    else summary.refused[result.code ?? '?'] = (summary.refused[result.code ?? '?'] ?? 0) + 1;
  };
  process.stdout.write('ready\n');
  const end = Date.now() + Number(ms);
  for (let n = 0; Date.now() < end; n++) {
    count(await session.read('f.txt'));
    count(await session.edit('f.txt', [n % 2 ? { oldString: 'ALPHA', newString: 'alpha' } : { oldString: 'alpha', newString: 'ALPHA' }]));
    count(await session.write('f.txt', `written ${n}\n`));
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error) => {
  process.stderr.write(`fifoGuard threw: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
