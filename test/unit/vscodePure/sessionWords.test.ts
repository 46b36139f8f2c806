import * as assert from 'assert';
import { contextName, fileDescription, sessionDescription, sessionWhen } from '../../../src/vscode/views/sessionWords';
import { reviewReminder } from '../../../src/vscode/approval/reviewReminder';

suite('the Sessions view and review reminder words (essential first)', () => {
  test('a changed file says who changed it before the lines seen; an unchanged one only the lines', () => {
    assert.strictEqual(fileDescription({ seenText: '1–40', totalLines: 120, missing: false }, 'changed by your revert'), 'changed by your revert · lines 1–40 of 120');
    assert.strictEqual(fileDescription({ seenText: '1–40', totalLines: 120, missing: false }, undefined), 'lines 1–40 of 120');
    assert.strictEqual(fileDescription({ seenText: '', totalLines: 0, missing: true }, undefined), 'seen missing');
  });

  test('a session row puts the time (when given) before its counts; contexts before its own counts', () => {
    assert.strictEqual(sessionDescription({ counts: { files: 1, reads: 2 } }), '1 file · 2 reads');
    assert.strictEqual(sessionDescription({ when: 'since 9:05 AM', counts: { files: 3, reads: 1 } }), 'since 9:05 AM · 3 files · 1 read');
    assert.strictEqual(sessionDescription({ contexts: 2 }), '2 agent contexts');
    assert.strictEqual(sessionDescription({ contexts: 1, counts: { files: 0, reads: 0 } }), '1 agent context · 0 files · 0 reads');
    assert.strictEqual(sessionDescription({ own: true, counts: { files: 1, reads: 0, changes: 1 } }), 'your patch · 1 file · 0 reads · 1 change');
  });

  test('an agent context is named by its own part, its client after it in the description', () => {
    assert.deepStrictEqual(contextName('Claude Code 2.1.332 › subagent Explore'), { name: 'subagent Explore', client: 'Claude Code 2.1.332' });
    assert.deepStrictEqual(contextName('Codex 0.169.0 › conversation 3 › subagent review'), { name: 'subagent review', client: 'Codex 0.169.0 › conversation 3' });
    assert.deepStrictEqual(contextName('Benchmark session'), { name: 'Benchmark session' });
    assert.strictEqual(
      sessionDescription({ client: 'Claude Code 2.1.332', when: '9:05 AM–9:07 AM', counts: { files: 2, reads: 3, changes: 0 } }),
      'Claude Code 2.1.332 · 9:05 AM–9:07 AM · 2 files · 3 reads · 0 changes',
    );
  });

  test('a live session runs "since" its start; an ended one from start to end', () => {
    const start = new Date(2026, 10, 28, 14, 2).getTime();
    const end = new Date(2026, 10, 28, 14, 10).getTime();
    assert.match(sessionWhen(start), /^since \d{1,2}:02/);
    assert.match(sessionWhen(start, end), /^\d{1,2}:02( [AP]M)?–\d{1,2}:10/);
  });

  test('the review reminder counts the changes and names who wants to change what; nothing when none waits', () => {
    assert.strictEqual(reviewReminder([]), undefined);
    const one = reviewReminder([{ who: 'Claude Code 2.1.332', files: ['src/a.ts', 'src/b.ts'] }]);
    assert.strictEqual(one?.text, '$(git-compare) 1 change to review');
    assert.match(one?.tooltip ?? '', /^Claude Code 2\.1\.332 wants to change src\/a\.ts, src\/b\.ts\n/);
    const many = reviewReminder(Array.from({ length: 7 }, (_, i) => ({ who: `Agent ${i}`, files: ['x'] })));
    assert.strictEqual(many?.text, '$(git-compare) 7 changes to review');
    assert.match(many?.tooltip ?? '', /… and 2 more/);
  });
});
