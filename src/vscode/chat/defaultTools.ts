/**
 * Read-only tools of other extensions (Copilot's search and listing tools) that `@readgate` offers its model
 * when some extension provides them (`readgate.chat.additionalTools`). Never a tool that changes files: its
 * changes would bypass the guard and the review. No `vscode` import: the manifest test compares it.
 */
export const DEFAULT_CHAT_TOOLS: readonly string[] = [
  'copilot_findFiles',
  'copilot_findTextInFiles',
  'copilot_listDirectory',
  'copilot_searchCodebase',
  'copilot_searchWorkspaceSymbols',
  'copilot_listCodeUsages',
  'copilot_getErrors',
  'copilot_getChangedFiles',
];
