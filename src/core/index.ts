/**
 * ReadGate's headless library (`dist/core.js`): the guard that decides what an agent may read and change. Plain
 * Node, no `vscode` import, so agents outside VS Code and our own tests use exactly the semantics the extension uses.
 */
export { createGuard } from './guard';
export { DEFAULTS } from './defaults';
export { ERROR_CODES, TOOL_ERROR_CODES, isErrorCode } from './refusals/refusal';
export { MAX_EDITS_PER_CALL } from './session/inputValidation';
export { OWN_TOOL_SURFACE } from './ownTools/recordOwnChange';
export type { ErrorCode, Refusal } from './refusals/refusal';
export type { ResultBudget } from './types';
export type {
  BatchWrite,
  ChangeSource,
  ChunkReader,
  ConflictReason,
  TextCodec,
  Clock,
  FileKind,
  FileStat,
  FileSystem,
  FolderExpectation,
  Logger,
  NotRegularFile,
  NotWritable,
  ScratchSpace,
  WriteConflict,
  WriteExpectation,
  WriteOptions,
} from './ports';
export type {
  ApprovalConflict,
  ApprovalDecision,
  ApprovalFile,
  ApprovalRequest,
  Edit,
  EndedSession,
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
  ObservedRead,
  OwnChange,
  OwnChangeCall,
  OwnChangedFile,
  OwnChangeJudgement,
  OwnReadCall,
  ReadCut,
  RecordedOwnChange,
  ShownOutput,
  ShownRange,
  ReadOptions,
  ReadResult,
  RevertOptions,
  RevertTarget,
  SessionOptions,
  SessionStats,
} from './types';

// Building blocks the VS Code adapter shares with the guard, so each piece of knowledge keeps one owner: the
// Node file system and its conflict errors, saved oversized tool results, the words for who changed a file, and
// the line diff the approval review splits into hunks. Headless callers may use them too.
export { createNodeFileSystem } from './nodeFileSystem';
export type { NodeFileSystemOptions } from './nodeFileSystem';
// The one atomic write of a small file and the one liveness check of a process, for src/mcp and the extension too.
export { writeFileAtomic } from './nodeFs/atomicWrite';
export { processAlive } from './nodeFs/processAlive';
export { writeConflict } from './fileErrors';
export { ToolResultStore } from './results/toolResultStore';
export type { PersistOutcome, ToolResultStoreOptions } from './results/toolResultStore';
export { formatCount } from './text/formatCount';
export { changedBy } from './refusals/refusal';
export { applyHunks, hunksOf } from './edit/hunks';
export type { Hunk } from './edit/hunks';
export { computeLineChanges } from './edit/lineDiff';
export { indexLines } from './text/lineEndings';
export { decodeText, encodeText } from './text/encoding';
export type { EncodeResult, TextEncoding } from './text/encoding';
export type { LineIndex } from './text/lineEndings';

// The five tools as one input check and dispatch, shared by the language model tools and the MCP servers.
export { TOOL_NAMES, isToolName, parseToolCall } from './tools/toolCall';
export type { CallBudget, PathMapper, ToolName, ToolOutcome, ToolRun } from './tools/toolCall';
export type { ApplyPatchInput, EditInput, MultiEditInput, ReadInput, WriteInput } from './tools/toolInput';
// What agents are told about the tools, on every surface (the chat participant, MCP, the guarded agent file).
export { TOOL_REFERENCE_NAMES } from './tools/toolNames';
export { AGENT_RULES, GUARDED_AGENT_INSTRUCTIONS, MCP_INSTRUCTIONS, NEVER_RETRY, REFUSAL_GUIDE, agentRules, agentRulesList } from './tools/agentInstructions';
export type { AgentRuleOptions } from './tools/agentInstructions';

// Patches from anywhere (a unified diff, search/replace blocks, an apply_patch patch), planned purely and applied
// through a session like any change.
export { parsePatch } from './patch/parsePatch';
export type { BlobIndex, FilePatch, ParsedPatch, PatchChanges, PatchFormat, PatchHunk, PatchLine, SearchReplaceBlock, UpdateChunk } from './patch/parsePatch';
export { planPatch } from './patch/planPatch';
export type { FileView, PatchOperation, PatchPlan, PatchView, PlacedEdit, PlanOptions } from './patch/planPatch';
export { patchEdit } from './patch/patchEdits';
export type { PatchEdit } from './patch/patchEdits';
export { applyPatch } from './session/applyPatch';
export { textOfBytes } from './text/loadText';
export type { ApplyPatchOptions } from './session/applyPatch';

// The change history: every applied change on record with its contents, and the pure plan of
// a revert (a three-way merge that keeps later changes), which the guard carries out like any change
// (`GuardOptions.history`, `Guard.history`, `Guard.revert`, `Guard.exportHistory`).
export { History, HISTORY_DEFAULTS } from './history/history';
export type { HistoryFilter, HistoryListing, HistoryOptions, UnreadableRecord } from './history/history';
export { createHistory } from './nodeFs/createHistory';
export type { FolderHistoryOptions } from './nodeFs/createHistory';
export type { ChangeKind, ChangeRecord, ChangedFile, RecordFileInput, RecordInput } from './history/changeRecord';
export type { ExportOptions as HistoryExportOptions, OmittedItem as HistoryExportOmission } from './history/exportLines';
export type { HistoryArea, HistoryStorage, StoredFile, StoredWrite } from './history/historyStorage';
export type { VersionProblem } from './history/versionReads';
export { planRevert, planSessionRevert } from './history/planRevert';
export type { Content as RevertContent, CurrentFiles, LineRange, RevertChange, RevertConflict, RevertFile, RevertOp, RevertPlan } from './history/revertTypes';
export { compareProblems, distanceToChange } from './problems/compareProblems';
export type { Problem, ProblemComparison, ProblemSeverity } from './problems/compareProblems';
export { MAX_LISTED, problemLine, problemsSection } from './problems/problemsSection';
export type { FileProblems } from './problems/problemsSection';
