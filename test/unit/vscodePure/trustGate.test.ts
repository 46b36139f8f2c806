import * as assert from 'assert';
import type { ApprovalRequest } from '../../../src/core/index';
import { createTrustGate } from '../../../src/vscode/approval/trustGate';

const request: ApprovalRequest = {
  sessionId: 's',
  operation: 'edit',
  explanation: 'rename the retry constant',
  files: [{ path: '/w/a.ts', created: false, before: 'a\n', after: 'b\n', diff: '--- /w/a.ts\n+++ /w/a.ts\n@@ -1 +1 @@\n-a\n+b' }],
  signal: new AbortController().signal,
};

suite('untrusted workspaces: no write without approval', () => {
  test('a trusted workspace applies without asking', async () => {
    let asked = 0;
    const gate = createTrustGate({ isTrusted: () => true, confirm: async () => (asked++, true), describePath: (p) => p });
    assert.deepStrictEqual(await gate(request), { approved: true });
    assert.strictEqual(asked, 0);
  });

  test('an untrusted workspace asks, showing the files, the reason and the diff; declining writes nothing', async () => {
    const questions: { message: string; detail: string }[] = [];
    const gate = createTrustGate({ isTrusted: () => false, confirm: async (message, detail) => (questions.push({ message, detail }), false), describePath: (p) => p.replace('/w/', '') });
    const decision = await gate(request);
    assert.strictEqual(decision.approved, false);
    assert.match(questions[0].message, /not trusted.*a\.ts/);
    assert.match(questions[0].detail, /The agent says: rename the retry constant/);
    assert.match(questions[0].detail, /-a\n\+b/);
  });

  test('an untrusted workspace applies only when the user allows it', async () => {
    const gate = createTrustGate({ isTrusted: () => false, confirm: async () => true, describePath: (p) => p });
    assert.deepStrictEqual(await gate(request), { approved: true });
  });
});
