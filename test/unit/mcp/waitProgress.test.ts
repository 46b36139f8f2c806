import * as assert from 'assert';
import { progressReport, reviewWaitMessage, WaitProgress } from '../../../src/mcp/waitProgress';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

suite('progress while a call waits for the user (src/mcp/waitProgress.ts)', () => {
  test('a request without a progress token gets no report at all', () => {
    assert.strictEqual(progressReport(undefined, async () => assert.fail('sent')), undefined);
  });

  test('each report is a notifications/progress with the request\'s token, the next progress and the message', () => {
    const sent: unknown[] = [];
    const report = progressReport(0, async (notification) => void sent.push(notification))!;
    report('a');
    report('b');
    assert.deepStrictEqual(sent, [
      { method: 'notifications/progress', params: { progressToken: 0, progress: 1, message: 'a' } },
      { method: 'notifications/progress', params: { progressToken: 0, progress: 2, message: 'b' } },
    ]);
  });

  test('a notification that cannot be sent (the client went away) is dropped, not thrown', async () => {
    const report = progressReport('t', () => Promise.reject(new Error('stream closed')))!;
    report('a');
    await sleep(10); // an unhandled rejection would fail the run
  });

  test('reports at once when the wait starts, then every interval, and never after it ends', async () => {
    const reports: string[] = [];
    const wait = new WaitProgress((message) => reports.push(message), 40);
    wait.set('waiting');
    assert.deepStrictEqual(reports, ['waiting'], 'not at once');
    await sleep(250);
    assert.ok(reports.length >= 3 && reports.length <= 8, `${reports.length} reports in 250 ms at one per 40 ms`);
    wait.set(undefined);
    const count = reports.length;
    await sleep(120);
    assert.strictEqual(reports.length, count);
    wait.dispose();
  });

  test('the same wait again is not reported twice at once; another message is', () => {
    const reports: string[] = [];
    const wait = new WaitProgress((message) => reports.push(message), 10_000);
    wait.set('a');
    wait.set('a');
    wait.set('b');
    wait.dispose();
    assert.deepStrictEqual(reports, ['a', 'b']);
  });

  test('the message names the files under review, at most three', () => {
    assert.strictEqual(reviewWaitMessage(['src/app.ts']), 'Waiting for the user to review the change to src/app.ts');
    assert.strictEqual(reviewWaitMessage(['a', 'b', 'c', 'd', 'e']), 'Waiting for the user to review the change to a, b, c and 2 more files');
    assert.strictEqual(reviewWaitMessage([]), 'Waiting for the user to review the change');
  });
});
