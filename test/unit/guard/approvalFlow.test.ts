/**
 * The approve port end to end on a real directory: what the request carries, that nothing is written while it
 * is pending, rejection, user-modified content, changes made during approval, cancellation, disposal, a
 * failing port, and concurrent calls that must never lose an update.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { applyHunks, createGuard, isErrorCode } from '../../../src/core/index';
import type { ApprovalDecision, ApprovalRequest, GuardOptions } from '../../../src/core/index';
import { makeTempDir } from '../helpers/tempDir';
import { put, refused, ok, lines } from '../helpers/results';

type Approve = (request: ApprovalRequest) => Promise<ApprovalDecision>;

function setup(approve: Approve, options: Partial<GuardOptions> = {}) {
  const root = makeTempDir();
  const guard = createGuard({ roots: [root], approve, ...options });
  return { root, guard, session: guard.session('agent-1') };
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise plus its resolver, to wait until the guard has asked for approval. */
function signalled<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

suite('guard approval: the request', () => {
  test('each file carries its hunks as data (line ranges and changes), and applying all of them gives the proposal', async () => {
    let request: ApprovalRequest | undefined;
    const { root, session } = setup(async (r) => {
      request = r;
      return { approved: true };
    });
    const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1}\n`).join('');
    put(path.join(root, 'h.txt'), text);
    ok(await session.read('h.txt'));
    ok(await session.edit('h.txt', [{ oldString: 'line 3\n', newString: 'THREE\nthree b\n' }, { oldString: 'line 30\n', newString: '' }]));
    const [file] = request!.files;
    assert.deepStrictEqual(file.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines]), [[1, 6, 1, 7], [27, 7, 28, 6]]);
    assert.deepStrictEqual(file.hunks.map((h) => h.changes.map((c) => [c.oldFrom, c.oldTo, c.newFrom, c.newTo])), [[[3, 4, 3, 5]], [[30, 31, 31, 31]]]);
    assert.strictEqual(applyHunks(file.before, file.after, file.hunks, new Set()), file.after);
    assert.strictEqual(applyHunks(file.before, file.after, file.hunks, new Set([1])), text.replace('line 3\n', 'THREE\nthree b\n'));
  });

  test('carries the session, operation, explanation and each file with before, after and diff; nothing is written while it is pending', async () => {
    const requests: ApprovalRequest[] = [];
    let bytesDuringApproval: string | undefined;
    const { root, session } = setup(async (request) => {
      requests.push(request);
      bytesDuringApproval = fs.readFileSync(path.join(root, 'a.txt'), 'utf8');
      return { approved: true };
    });
    const file = put(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
    ok(await session.read('a.txt'));
    ok(await session.edit('a.txt', [{ oldString: 'two', newString: 'TWO' }], { explanation: 'shout the second line' }));

    assert.strictEqual(requests.length, 1);
    const [request] = requests;
    assert.strictEqual(request.sessionId, 'agent-1');
    assert.strictEqual(request.operation, 'edit');
    assert.strictEqual(request.explanation, 'shout the second line');
    assert.strictEqual(request.files.length, 1);
    const [entry] = request.files;
    assert.strictEqual(entry.path, file);
    assert.strictEqual(entry.created, false);
    assert.strictEqual(entry.before, 'one\ntwo\nthree\n');
    assert.strictEqual(entry.after, 'one\nTWO\nthree\n');
    assert.ok(lines(entry.diff).includes('-two'), entry.diff);
    assert.ok(lines(entry.diff).includes('+TWO'), entry.diff);
    assert.ok(request.signal instanceof AbortSignal && !request.signal.aborted);
    // Writing first and asking afterwards makes "reject" meaningless.
    assert.strictEqual(bytesDuringApproval, 'one\ntwo\nthree\n');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\n');
  });

  test('a create is asked as created with an empty before, and the file does not exist while approval is pending', async () => {
    const requests: ApprovalRequest[] = [];
    let existedDuringApproval: boolean | undefined;
    const { root, session } = setup(async (request) => {
      requests.push(request);
      existedDuringApproval = fs.existsSync(path.join(root, 'dir', 'new.txt'));
      return { approved: true };
    });
    ok(await session.write('dir/new.txt', 'hello\n'));
    assert.strictEqual(requests[0].operation, 'write');
    assert.strictEqual(requests[0].files[0].created, true);
    assert.strictEqual(requests[0].files[0].before, '');
    assert.strictEqual(requests[0].files[0].after, 'hello\n');
    assert.ok(lines(requests[0].files[0].diff).includes('+hello'), requests[0].files[0].diff);
    assert.strictEqual(existedDuringApproval, false);
    assert.strictEqual(fs.readFileSync(path.join(root, 'dir', 'new.txt'), 'utf8'), 'hello\n');
  });
});

suite('guard approval: decisions', () => {
  test('a rejection with a reason refuses with REJECTED_BY_USER, says NOT modified, passes the reason on, and leaves the file', async () => {
    const { root, session } = setup(async () => ({ approved: false, reason: 'keep the old name' }));
    const file = put(path.join(root, 'a.txt'), 'old\n');
    ok(await session.read('a.txt'));
    refused(await session.edit('a.txt', [{ oldString: 'old', newString: 'new' }]), 'REJECTED_BY_USER', 'NOT modified', 'keep the old name');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'old\n');
  });

  test('content the user changed before approving is what gets written, and the result says so with the final diff', async () => {
    let userEdits = true;
    const { root, session } = setup(async (request) =>
      userEdits ? { approved: true, files: [{ path: request.files[0].path, content: 'a\nB from the user\nc\n' }] } : { approved: true },
    );
    const file = put(path.join(root, 'a.txt'), 'a\nb\nc\n');
    ok(await session.read('a.txt'));
    const result = ok(await session.edit('a.txt', [{ oldString: 'b', newString: 'B from the agent' }]));

    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'a\nB from the user\nc\n');
    assert.ok(/user/i.test(lines(result.text)[0]), result.text);
    // Reporting the agent's proposal as applied would leave the model believing in content that is not there.
    assert.ok(lines(result.text).includes('+B from the user'), result.text);
    assert.ok(!result.text.includes('B from the agent'), result.text);
    assert.ok(lines(result.files[0].diff).includes('+B from the user'), result.files[0].diff);

    // The final diff was shown, so the user's line can be edited next without a read.
    userEdits = false;
    ok(await session.edit('a.txt', [{ oldString: 'B from the user', newString: 'B' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'a\nB\nc\n');
  });

  test('a file changed by someone else during approval is refused with FILE_CHANGED_SINCE_READ and their content is kept', async () => {
    let file = '';
    const { root, session } = setup(async () => {
      fs.writeFileSync(file, 'one\nchanged by the user\nthree\n');
      return { approved: true };
    });
    file = put(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
    ok(await session.read('a.txt'));
    // Writing the approved proposal here would silently overwrite the user's concurrent work.
    const message = refused(await session.edit('a.txt', [{ oldString: 'two', newString: 'TWO' }]), 'FILE_CHANGED_SINCE_READ');
    assert.ok(lines(message).includes('+changed by the user'), message);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\nchanged by the user\nthree\n');
  });

  test('a file deleted during approval is refused and not re-created', async () => {
    let file = '';
    const { root, session } = setup(async () => {
      fs.rmSync(file);
      return { approved: true };
    });
    file = put(path.join(root, 'a.txt'), 'one\n');
    ok(await session.read('a.txt'));
    refused(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]), 'FILE_CHANGED_SINCE_READ');
    assert.ok(!fs.existsSync(file));
  });

  test('an approval port that throws or rejects gives a refusal, not a thrown error, and leaves the file', async () => {
    const failures: Approve[] = [
      async () => {
        throw new Error('webview crashed');
      },
      (() => {
        throw new Error('webview crashed');
      }) as Approve,
    ];
    for (const failing of failures) {
      let approve: Approve = failing;
      const { root, session } = setup((request) => approve(request));
      const file = put(path.join(root, 'a.txt'), 'one\n');
      ok(await session.read('a.txt'));
      const result = await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]);
      assert.strictEqual(result.ok, false, JSON.stringify(result));
      if (result.ok) continue;
      assert.ok(isErrorCode(result.code), result.code);
      assert.ok(result.message.includes('NOT modified'), result.message);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
      // A lock left held by the failed call would hang this one.
      approve = async () => ({ approved: true });
      ok(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'two\n');
    }
  });
});

suite('guard approval: cancellation and disposal', () => {
  test('aborting while approval is pending returns CANCELLED, aborts the request signal, and writes nothing even if approval then arrives', async () => {
    const asked = signalled<ApprovalRequest>();
    const { root, session } = setup(
      (request) =>
        new Promise((resolve) => {
          asked.resolve(request);
          // A UI that approves after the call was cancelled must not cause a write.
          request.signal.addEventListener('abort', () => resolve({ approved: true }));
        }),
    );
    const file = put(path.join(root, 'a.txt'), 'one\n');
    ok(await session.read('a.txt'));
    const controller = new AbortController();
    const pending = session.edit('a.txt', [{ oldString: 'one', newString: 'two' }], { signal: controller.signal });
    const request = await asked.promise;
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
    controller.abort();
    refused(await pending, 'CANCELLED');
    assert.strictEqual(request.signal.aborted, true);
    await delay(20);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
  });

  test('a signal aborted before the call returns CANCELLED without asking for approval', async () => {
    let asked = 0;
    const { root, session } = setup(async () => {
      asked++;
      return { approved: true };
    });
    const file = put(path.join(root, 'a.txt'), 'one\n');
    ok(await session.read('a.txt'));
    const controller = new AbortController();
    controller.abort();
    const signal = controller.signal;
    refused(await session.read('a.txt', { signal }), 'CANCELLED');
    refused(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }], { signal }), 'CANCELLED');
    refused(await session.write('a.txt', 'two\n', { signal }), 'CANCELLED');
    refused(await session.multiEdit([{ path: 'a.txt', edits: [{ oldString: 'one', newString: 'two' }] }], { signal }), 'CANCELLED');
    refused(await session.write('b.txt', 'new\n', { signal }), 'CANCELLED');
    assert.strictEqual(asked, 0);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
    assert.ok(!fs.existsSync(path.join(root, 'b.txt')));
  });

  test('after dispose every call returns CANCELLED and touches nothing', async () => {
    const { root, guard, session } = setup(async () => ({ approved: true }));
    const file = put(path.join(root, 'a.txt'), 'one\n');
    ok(await session.read('a.txt'));
    await guard.dispose();
    refused(await session.read('a.txt'), 'CANCELLED');
    refused(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]), 'CANCELLED');
    refused(await session.write('a.txt', 'two\n'), 'CANCELLED');
    refused(await session.multiEdit([{ path: 'a.txt', edits: [{ oldString: 'one', newString: 'two' }] }]), 'CANCELLED');
    refused(await guard.session('late').write('b.txt', 'new\n'), 'CANCELLED');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
    assert.ok(!fs.existsSync(path.join(root, 'b.txt')));
  });

  test('dispose while approval is pending writes nothing even when the approval then arrives', async () => {
    const asked = signalled();
    const decide = signalled<ApprovalDecision>();
    const { root, guard, session } = setup(() => {
      asked.resolve();
      return decide.promise;
    });
    const file = put(path.join(root, 'a.txt'), 'one\n');
    ok(await session.read('a.txt'));
    const pending = session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]);
    await asked.promise;
    await guard.dispose();
    decide.resolve({ approved: true });
    refused(await pending, 'CANCELLED');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
  });
});

suite('guard approval: concurrency', () => {
  test('two concurrent edits of one file by one session are serialized and never lose an update', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const { root, session } = setup(async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await delay(40);
      inFlight--;
      return { approved: true };
    });
    const file = put(path.join(root, 'a.txt'), 'a\nb\nc\nd\n');
    ok(await session.read('a.txt'));
    const first = session.edit('a.txt', [{ oldString: 'a', newString: 'A' }]);
    const second = session.edit('a.txt', [{ oldString: 'd', newString: 'D' }]);
    const [r1, r2] = await Promise.all([first, second]);

    ok(r1);
    const final = fs.readFileSync(file, 'utf8');
    // Two plans made against the same version, each written whole, would drop the first change.
    if (r2.ok) assert.strictEqual(final, 'A\nb\nc\nD\n');
    else assert.strictEqual(final, 'A\nb\nc\nd\n');
    assert.strictEqual(maxInFlight, 1, 'the second approval was asked while the first was still pending');
  });

  test('two concurrent edits of the same line by one session: the second is refused, not applied over the first', async () => {
    const { root, session } = setup(async () => {
      await delay(30);
      return { approved: true };
    });
    const file = put(path.join(root, 'a.txt'), 'a\nb\nc\n');
    ok(await session.read('a.txt'));
    const [r1, r2] = await Promise.all([
      session.edit('a.txt', [{ oldString: 'b', newString: 'first' }]),
      session.edit('a.txt', [{ oldString: 'b', newString: 'second' }]),
    ]);
    ok(r1);
    assert.strictEqual(r2.ok, false, JSON.stringify(r2));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'a\nfirst\nc\n');
  });

  test('concurrent edits from two sessions that both read the file never lose an update', async () => {
    const { root, guard } = setup(async () => {
      await delay(30);
      return { approved: true };
    });
    const file = put(path.join(root, 'a.txt'), 'a\nb\nc\nd\n');
    const one = guard.session('one');
    const two = guard.session('two');
    ok(await one.read('a.txt'));
    ok(await two.read('a.txt'));
    const [r1, r2] = await Promise.all([
      one.edit('a.txt', [{ oldString: 'a', newString: 'A' }]),
      two.edit('a.txt', [{ oldString: 'd', newString: 'D' }]),
    ]);
    ok(r1);
    const final = fs.readFileSync(file, 'utf8');
    if (r2.ok) assert.strictEqual(final, 'A\nb\nc\nD\n');
    else {
      // Session two saw line 1 before session one changed it: a refusal with the diff is the right answer.
      refused(r2, 'FILE_CHANGED_SINCE_READ', '+A');
      assert.strictEqual(final, 'A\nb\nc\nd\n');
    }
  });
});

suite('guard approval: paths that change while approval is pending', () => {
  /** Replaces the folder `dir` by a symlink to `to`, keeping the old folder aside. */
  function swapForLink(dir: string, to: string): void {
    fs.renameSync(dir, `${dir}.aside`);
    fs.symlinkSync(to, dir);
  }

  // Audit: only the planned target was re-stat'ed after approval, so a folder swapped for a link out of the
  // roots while the user reviewed made the approved create land outside the roots.
  test('a create whose folder became a link out of the roots during approval is PATH_DENIED and writes nothing', async () => {
    const outside = makeTempDir('readgate-outside-');
    let root = '';
    const { session, root: made } = setup(async () => {
      swapForLink(path.join(root, 'sub'), outside);
      return { approved: true };
    });
    root = made;
    fs.mkdirSync(path.join(root, 'sub'));
    refused(await session.write('sub/new.txt', 'hello\n'), 'PATH_DENIED', 'Nothing was written');
    fs.rmSync(path.join(root, 'sub'));
    fs.renameSync(path.join(root, 'sub.aside'), path.join(root, 'sub'));
    refused(await session.edit('sub/deep/new.txt', [{ oldString: '', newString: 'hello\n' }]), 'PATH_DENIED');
    assert.deepStrictEqual(fs.readdirSync(outside), []);
    assert.deepStrictEqual(fs.readdirSync(path.join(root, 'sub.aside')), []);
  });

  // The outside file has the very bytes that were read, so a content check alone would pass and write it.
  test('an edit whose folder became a link out of the roots during approval writes neither file', async () => {
    const outside = makeTempDir('readgate-outside-');
    const outsideFile = put(path.join(outside, 'a.txt'), 'one\n');
    let root = '';
    const { session, root: made } = setup(async () => {
      swapForLink(path.join(root, 'sub'), outside);
      return { approved: true };
    });
    root = made;
    put(path.join(root, 'sub', 'a.txt'), 'one\n');
    ok(await session.read('sub/a.txt'));
    const message = refused(await session.edit('sub/a.txt', [{ oldString: 'one', newString: 'two' }]), 'PATH_DENIED');
    // The refusal must not show the outside file's content either.
    assert.ok(!message.includes('+'), message);
    assert.strictEqual(fs.readFileSync(outsideFile, 'utf8'), 'one\n');
    assert.strictEqual(fs.readFileSync(path.join(root, 'sub.aside', 'a.txt'), 'utf8'), 'one\n');
  });

  test('a path that leads to another file inside the roots after approval is refused, both files kept', async () => {
    let root = '';
    const { session, root: made } = setup(async () => {
      swapForLink(path.join(root, 'sub'), path.join(root, 'other'));
      return { approved: true };
    });
    root = made;
    put(path.join(root, 'sub', 'a.txt'), 'one\n');
    const other = put(path.join(root, 'other', 'a.txt'), 'one\n');
    ok(await session.read('sub/a.txt'));
    ok(await session.read('other/a.txt'));
    refused(await session.edit('sub/a.txt', [{ oldString: 'one', newString: 'two' }]), 'FILE_CHANGED_SINCE_READ', 'now leads to');
    assert.strictEqual(fs.readFileSync(other, 'utf8'), 'one\n');
    assert.strictEqual(fs.readFileSync(path.join(root, 'sub.aside', 'a.txt'), 'utf8'), 'one\n');
  });

  test('a multiEdit with one folder swapped for a link out of the roots during approval writes no file', async () => {
    const outside = makeTempDir('readgate-outside-');
    let root = '';
    const { session, root: made } = setup(async () => {
      swapForLink(path.join(root, 'sub'), outside);
      return { approved: true };
    });
    root = made;
    const a = put(path.join(root, 'a.txt'), 'one\n');
    put(path.join(root, 'sub', 'b.txt'), 'two\n');
    put(path.join(outside, 'b.txt'), 'two\n');
    ok(await session.read('a.txt'));
    ok(await session.read('sub/b.txt'));
    refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'one', newString: 'ONE' }] },
        { path: 'sub/b.txt', edits: [{ oldString: 'two', newString: 'TWO' }] },
      ]),
      'PATH_DENIED',
    );
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'one\n');
    assert.strictEqual(fs.readFileSync(path.join(outside, 'b.txt'), 'utf8'), 'two\n');
  });
});
