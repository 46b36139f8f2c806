/**
 * What ReadGate itself returns for a read, from the library in this process (a fresh session, so no
 * placeholder): the agent tests compare what a CLI showed the model with it.
 */
import { createGuard, type ReadOptions } from '../../src/core/index';

export async function readgateText(root: string, filePath: string, options: ReadOptions = {}): Promise<string> {
  const guard = createGuard({ roots: [root] });
  try {
    const result = await guard.session('reference').read(filePath, { ...options, force: true });
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    return result.text;
  } finally {
    guard.dispose();
  }
}
