/**
 * Child program for the SIGKILL test: rewrites <file> through a guard forever, each time with whichever of two
 * known contents it does not hold (read, then write that version), printing "writing <n> <A|B>" before each
 * write and "ok <n> <A|B>" after it applies (or "refused <code>"). Prints "ready" once the guard is warm.
 * Usage: node writeLoop.js <core.js> <root> <file> <contentA> <contentB>.
 */
import * as fs from 'fs';

type Core = typeof import('../../../../src/core/index');

async function main(): Promise<void> {
  const [corePath, root, file, aFile, bFile] = process.argv.slice(2);
  const core = require(corePath) as Core;
  const a = fs.readFileSync(aFile, 'utf8');
  const b = fs.readFileSync(bFile, 'utf8');
  const session = core.createGuard({ roots: [root], limits: { maxFileBytes: 64 * 1024 * 1024 } }).session('writer');
  await session.read(file, { limit: 1 });
  process.stdout.write('ready\n');
  for (let n = 1; ; n++) {
    // A one-line read gives the version; the write names it (expectedVersion), so the 4 MB are not shown.
    const read = await session.read(file, { limit: 1, force: true });
    if (!read.ok) {
      process.stdout.write(`refused ${read.code} (read)\n`);
      continue;
    }
    const which = fs.readFileSync(file, 'utf8') === a ? 'B' : 'A';
    process.stdout.write(`writing ${n} ${which}\n`);
    const result = await session.write(file, which === 'A' ? a : b, { expectedVersion: read.version });
    process.stdout.write(result.ok ? `ok ${n} ${which}\n` : `refused ${result.code}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`writeLoop threw: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
