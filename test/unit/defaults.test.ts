import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULTS } from '../../src/core/index';
import { repoRoot } from './helpers/repoRoot';

const MiB = 1024 * 1024;

function manifestDefaults(): Record<string, unknown> {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const configuration = manifest.contributes.configuration;
  const sections: { properties: Record<string, { default?: unknown }> }[] = Array.isArray(configuration) ? configuration : [configuration];
  return Object.fromEntries(sections.flatMap((section) => Object.entries(section.properties)).map(([key, setting]) => [key, setting.default]));
}

suite('setting defaults', () => {
  // The guard, the settings reader and the manifest each carried their own copy of these numbers.
  test('package.json declares the core defaults for every setting that carries one', () => {
    const declared = manifestDefaults();
    const expected: Record<string, unknown> = {
      'readgate.read.dedup': DEFAULTS.dedup,
      'readgate.read.maxLines': DEFAULTS.maxLines,
      'readgate.read.maxBytes': DEFAULTS.maxBytes,
      'readgate.read.maxLineLength': DEFAULTS.maxLineLength,
      'readgate.edit.maxFileSizeMB': DEFAULTS.maxFileBytes / MiB,
      'readgate.memory.snapshotBudgetMB': DEFAULTS.snapshotBudgetBytes / MiB,
      'readgate.toolResults.thresholdChars': DEFAULTS.toolResultThreshold,
    };
    for (const [key, value] of Object.entries(expected)) assert.deepStrictEqual(declared[key], value, `${key}: package.json says ${JSON.stringify(declared[key])}`);
  });

  test('every core default is declared by some setting (a new default needs its setting checked above)', () => {
    assert.deepStrictEqual(Object.keys(DEFAULTS).sort(), ['dedup', 'maxBytes', 'maxFileBytes', 'maxLineLength', 'maxLines', 'snapshotBudgetBytes', 'toolResultThreshold']);
  });

  test('the defaults cannot be changed at run time', () => {
    assert.ok(Object.isFrozen(DEFAULTS));
  });
});
