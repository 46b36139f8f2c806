/**
 * Child program: a guard from the built bundle runs a list of calls in order and prints each result as one
 * JSON line, then "done". Used to run the guard as another user (node guardCalls.js <core.js> <spec json>).
 * Built-ins only, so it can be copied where that user can read it.
 */
type Core = typeof import('../../../../src/core/index');

export {}; // a module, not a script: its names stay its own

interface Call {
  op: 'read' | 'edit' | 'write';
  path: string;
  edits?: { oldString: string; newString: string }[];
  content?: string;
}

async function main(): Promise<void> {
  const [corePath, specJson] = process.argv.slice(2);
  const core = require(corePath) as Core;
  const spec = JSON.parse(specJson) as { roots: string[]; calls: Call[] };
  const session = core.createGuard({ roots: spec.roots }).session('child');
  for (const call of spec.calls) {
    const result =
      call.op === 'read' ? await session.read(call.path) : call.op === 'edit' ? await session.edit(call.path, call.edits ?? []) : await session.write(call.path, call.content ?? '');
    process.stdout.write(`${JSON.stringify({ op: call.op, result })}\n`);
  }
  process.stdout.write('done\n');
}

main().catch((error) => {
  process.stderr.write(`guardCalls threw: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
