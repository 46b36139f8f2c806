/**
 * What ReadGate itself returns for a read, from the library in this process (a fresh session, so no
 * placeholder): the agent tests compare what a CLI showed the model with it.
 */
import { createGuard, type ReadOptions, type ResultBudget } from '../../src/core/index';

/**
 * `readNumber`: which read of its session the agent's read is (headers number reads), so the reference is the
 * exact text, character for character. `budget`: the server's result budget for the client.
 */
export async function readgateText(root: string, filePath: string, options: ReadOptions = {}, readNumber = 1, budget?: ResultBudget): Promise<string> {
  const guard = createGuard({ roots: [root] });
  try {
    const result = await guard.session('reference', budget ? { resultBudget: budget } : {}).read(filePath, { ...options, force: true });
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    const [header, ...rest] = result.text.split('\n');
    return [header.replace(/ · read #1$/, ` · read #${readNumber}`), ...rest].join('\n');
  } finally {
    await guard.dispose();
  }
}
