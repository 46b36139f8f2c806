/** The mutations the write-path fault and race tests replay step by step, each on a fresh real temp tree. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { GuardSession, MutationResult } from '../../../src/core/index';
import { type Call, controlledFileSystem } from './faultySyscalls';
import { put } from './results';
import { makeTempDir } from './tempDir';
import { type Tree, treeOf } from './tree';

export interface Scenario {
  name: string;
  /** Writes the starting files under root; the session then reads what `read` names. */
  setup(root: string): void;
  read: string[];
  run(session: GuardSession): Promise<MutationResult>;
  /** Files the call changes (relative), for the crash check. */
  files: string[];
}

const CRLF = 'alpha\r\nbeta\r\ngamma\r\n';

export const scenarios: Scenario[] = [
  {
    name: 'edit',
    setup(root) {
      put(path.join(root, 'sub', 'a.txt'), CRLF);
      fs.chmodSync(path.join(root, 'sub', 'a.txt'), 0o640);
    },
    read: ['sub/a.txt'],
    run: (session) => session.edit('sub/a.txt', [{ oldString: 'beta', newString: 'BETA\nmore' }]),
    files: ['sub/a.txt'],
  },
  {
    name: 'create',
    setup(root) {
      put(path.join(root, 'sub', 'keep.txt'), 'keep\n');
    },
    read: [],
    run: (session) => session.edit('sub/new/deep/c.txt', [{ oldString: '', newString: 'created\n' }]),
    files: ['sub/new/deep/c.txt'],
  },
  {
    name: 'write',
    setup(root) {
      put(path.join(root, 'sub', 'a.txt'), CRLF);
    },
    read: ['sub/a.txt'],
    run: (session) => session.write('sub/a.txt', 'one\ntwo\n'),
    files: ['sub/a.txt'],
  },
  {
    name: 'multiEdit',
    setup(root) {
      put(path.join(root, 'sub', 'a.txt'), CRLF);
      put(path.join(root, 'b.txt'), 'bee\n');
    },
    read: ['sub/a.txt', 'b.txt'],
    run: (session) =>
      session.multiEdit([
        { path: 'sub/a.txt', edits: [{ oldString: 'gamma', newString: 'GAMMA' }] },
        { path: 'made/c.txt', edits: [{ oldString: '', newString: 'c\n' }] },
        { path: 'b.txt', edits: [{ oldString: 'bee', newString: 'BEE' }] },
      ]),
    files: ['sub/a.txt', 'made/c.txt', 'b.txt'],
  },
  {
    name: 'delete',
    setup(root) {
      put(path.join(root, 'sub', 'a.txt'), CRLF);
      put(path.join(root, 'sub', 'keep.txt'), 'keep\n');
    },
    read: ['sub/a.txt'],
    run: (session) => session.delete('sub/a.txt'),
    files: ['sub/a.txt'],
  },
  {
    name: 'rename',
    setup(root) {
      put(path.join(root, 'sub', 'a.txt'), CRLF);
      fs.chmodSync(path.join(root, 'sub', 'a.txt'), 0o640);
    },
    read: ['sub/a.txt'],
    run: (session) => session.rename('sub/a.txt', 'moved/deeper/b.txt'),
    files: ['sub/a.txt', 'moved/deeper/b.txt'],
  },
  {
    name: 'multiEdit with a move, a deletion and a create',
    setup(root) {
      put(path.join(root, 'sub', 'a.txt'), CRLF);
      put(path.join(root, 'b.txt'), 'bee\n');
      put(path.join(root, 'gone.txt'), 'old\n');
    },
    read: ['sub/a.txt', 'b.txt', 'gone.txt'],
    run: (session) =>
      session.multiEdit([
        { path: 'sub/a.txt', moveTo: 'sub/renamed.txt', edits: [{ oldString: 'gamma', newString: 'GAMMA' }] },
        { path: 'gone.txt', delete: true },
        { path: 'made/c.txt', edits: [{ oldString: '', newString: 'c\n' }] },
        { path: 'b.txt', edits: [{ oldString: 'bee', newString: 'BEE' }] },
      ]),
    files: ['sub/a.txt', 'sub/renamed.txt', 'gone.txt', 'made/c.txt', 'b.txt'],
  },
];

export interface Prepared {
  root: string;
  session: GuardSession;
  control: ReturnType<typeof controlledFileSystem>;
  before: Tree;
}

export async function prepare(scenario: Scenario): Promise<Prepared> {
  const root = makeTempDir('readgate-faults-');
  scenario.setup(root);
  const control = controlledFileSystem();
  const guard = createGuard({ roots: [root], fileSystem: control.fileSystem });
  const session = guard.session('faults');
  for (const file of scenario.read) assert.ok((await session.read(file)).ok, `setup read of ${file}`);
  return { root, session, control, before: treeOf(root) };
}

/** The calls the scenario's mutation makes, and the tree it leaves, without faults. */
export async function reference(scenario: Scenario): Promise<{ calls: Call[]; after: Tree }> {
  const { root, session, control } = await prepare(scenario);
  control.arm();
  const result = await scenario.run(session);
  control.disarm();
  assert.ok(result.ok, `${scenario.name} without faults: ${JSON.stringify(result)}`);
  return { calls: [...control.calls], after: treeOf(root) };
}

