/**
 * The Node file system port over system calls that a test controls one by one: record the calls an operation
 * makes, then replay it with a fault at any single call: an errno, a short write, a competing action run just
 * before the call, or a crash (that call and every later one fail, so nothing after it runs, not even cleanup).
 */
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { nodeSyscalls, type Syscalls } from '../../../src/core/nodeFs/syscalls';
import type { FileSystem } from '../../../src/core/index';

export type SyscallName = keyof Syscalls;

export interface Call {
  index: number;
  name: SyscallName;
  /** The path argument, when the call has one. */
  path?: string;
}

export type Fault =
  | { kind: 'errno'; code: string }
  /** writeSync writes half of what it was asked (and says so); the next writeSync fails with ENOSPC. */
  | { kind: 'short' }
  /** writeSync writes nothing and returns 0. */
  | { kind: 'zero' }
  | { kind: 'race'; run: () => void }
  | { kind: 'crash' };

export class Crash extends Error {
  constructor(at: string) {
    super(`simulated crash at ${at}`);
  }
}

export interface Controlled {
  fileSystem: FileSystem;
  calls: Call[];
  /** Faults apply only while armed (e.g. during the mutation, not the read before it). */
  arm(fault?: (call: Call) => Fault | undefined): void;
  disarm(): void;
  crashed(): boolean;
}

function errno(code: string, name: string, path: string | undefined): Error {
  return Object.assign(new Error(`${code}: injected, ${name}${path ? ` '${path}'` : ''}`), { code, syscall: name.replace(/Sync$/, ''), ...(path ? { path } : {}) });
}

/** `lateChecksMs`: the port's late-append watch; off by default, so no timer adds calls to a replay. */
export function controlledFileSystem(lateChecksMs: readonly number[] = []): Controlled {
  const calls: Call[] = [];
  let armed = false;
  let decide: ((call: Call) => Fault | undefined) | undefined;
  let crashedAt: string | undefined;
  let failNextWrite = false;
  const wrapped = {} as Record<SyscallName, (...args: unknown[]) => unknown>;
  for (const name of Object.keys(nodeSyscalls) as SyscallName[]) {
    const real = nodeSyscalls[name] as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      if (!armed) return real(...args);
      if (crashedAt) throw new Crash(crashedAt);
      const path = typeof args[0] === 'string' ? args[0] : undefined;
      const call: Call = { index: calls.length, name, ...(path ? { path } : {}) };
      calls.push(call);
      if (process.env.READGATE_DEBUG === '2') console.log(`  call ${name}#${call.index} ${path ?? args[0]}`);
      if (name === 'writeSync' && failNextWrite) {
        failNextWrite = false;
        throw errno('ENOSPC', name, path);
      }
      const fault = decide?.(call);
      if (!fault) return real(...args);
      switch (fault.kind) {
        case 'errno':
          throw errno(fault.code, name, path);
        case 'crash':
          crashedAt = `${name}#${call.index}`;
          throw new Crash(crashedAt);
        case 'race':
          fault.run();
          return real(...args);
        case 'short':
        case 'zero': {
          if (name !== 'writeSync') return real(...args);
          const [fd, buffer, offset, length, position] = args as [number, Uint8Array, number, number, number | null];
          if (fault.kind === 'zero' || length < 2) return 0;
          failNextWrite = true;
          return nodeSyscalls.writeSync(fd, buffer, offset, Math.floor(length / 2), position);
        }
      }
    };
  }
  return {
    fileSystem: createNodeFileSystem({ syscalls: wrapped as unknown as Syscalls, lateChecksMs }),
    calls,
    arm(fault) {
      calls.length = 0;
      crashedAt = undefined;
      failNextWrite = false;
      decide = fault;
      armed = true;
    },
    disarm() {
      armed = false;
      decide = undefined;
    },
    crashed: () => crashedAt !== undefined,
  };
}
