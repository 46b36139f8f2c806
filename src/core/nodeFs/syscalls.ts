/**
 * The synchronous `fs` calls the Node file system port makes, as one replaceable object: tests wrap it to fail,
 * shorten, race or "crash" any single call of the write path deterministically (FileSystem port fault injection).
 * Synchronous on purpose: the last check before a file is replaced and the replacing call must run with no
 * await between them.
 */
import * as fs from 'node:fs';

export interface Syscalls {
  openSync(path: string, flags: number, mode?: number): number;
  closeSync(fd: number): void;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  fstatSync(fd: number): fs.Stats;
  lstatSync(path: string): fs.Stats;
  statSync(path: string): fs.Stats;
  fsyncSync(fd: number): void;
  fchmodSync(fd: number, mode: number): void;
  fchownSync(fd: number, uid: number, gid: number): void;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, created: string): void;
  unlinkSync(path: string): void;
  accessSync(path: string, mode: number): void;
  mkdirSync(path: string): void;
  rmdirSync(path: string): void;
  readlinkSync(path: string): string;
  realpathSync(path: string): string;
  readdirSync(path: string): string[];
}

export const nodeSyscalls: Syscalls = {
  openSync: (path, flags, mode) => fs.openSync(path, flags, mode),
  closeSync: (fd) => fs.closeSync(fd),
  readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
  writeSync: (fd, buffer, offset, length, position) => fs.writeSync(fd, buffer, offset, length, position),
  fstatSync: (fd) => fs.fstatSync(fd),
  lstatSync: (path) => fs.lstatSync(path),
  statSync: (path) => fs.statSync(path),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  fchmodSync: (fd, mode) => fs.fchmodSync(fd, mode),
  fchownSync: (fd, uid, gid) => fs.fchownSync(fd, uid, gid),
  renameSync: (from, to) => fs.renameSync(from, to),
  linkSync: (existing, created) => fs.linkSync(existing, created),
  unlinkSync: (path) => fs.unlinkSync(path),
  accessSync: (path, mode) => fs.accessSync(path, mode),
  mkdirSync: (path) => void fs.mkdirSync(path),
  rmdirSync: (path) => fs.rmdirSync(path),
  readlinkSync: (path) => fs.readlinkSync(path),
  realpathSync: (path) => fs.realpathSync.native(path),
  readdirSync: (path) => fs.readdirSync(path),
};
