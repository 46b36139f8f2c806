/**
 * ReadGate's headless library (`dist/core.js`): the guard that decides what an agent may read and change.
 * Plain Node, no `vscode` import, so agents outside VS Code and our own tests use exactly the semantics the
 * extension uses (API.md section 1).
 */
export { createGuard } from './guard';
export { ERROR_CODES, isErrorCode } from './refusals/refusal';
export { MAX_EDITS_PER_CALL } from './operations/inputValidation';
export type { ErrorCode, Refusal } from './refusals/refusal';
export type { BatchWrite, ChangeSource, ChunkReader, ConflictReason, TextCodec, Clock, FileKind, FileStat, FileSystem, FolderExpectation, Logger, NotRegularFile, NotWritable, WriteConflict, WriteExpectation, WriteOptions } from './ports';
export type {
  ApprovalDecision,
  ApprovalFile,
  ApprovalRequest,
  Edit,
  Guard,
  GuardLimits,
  GuardOptions,
  GuardSettings,
  GuardSession,
  LedgerChange,
  LedgerEntryView,
  MutatedFile,
  MutationOptions,
  MutationResult,
  MultiEditChange,
  ReadOptions,
  ReadResult,
  SessionOptions,
  SessionStats,
} from './types';
