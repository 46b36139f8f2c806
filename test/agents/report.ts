/**
 * Measurements the agent tests make (sizes, thresholds, what the model was shown), printed under the test and
 * kept as JSON in the git-ignored `test-results/agents/` so a run's numbers can be quoted.
 */
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../unit/helpers/repoRoot';

export function report(name: string, data: unknown): void {
  const dir = path.join(repoRoot, 'test-results/agents');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(data, null, 2) + '\n');
  const rows = Array.isArray(data) ? data : [data];
  for (const row of rows) process.stdout.write(`      ${JSON.stringify(row)}\n`);
}
