/** The five tools' names, the same on every surface (docs/agents.md, "Language model tools"). */
export const TOOL_NAMES = {
  read: 'readgate_read',
  edit: 'readgate_edit',
  multiEdit: 'readgate_multiEdit',
  write: 'readgate_write',
  applyPatch: 'readgate_applyPatch',
} as const;

export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

/**
 * The names VS Code's chat knows them by in prompts (`#readgateRead`) and in custom agent files (package.json
 * `toolReferenceName`; 1.106 and later put the extension id in front: `readgate.readgate/readgateRead`).
 */
export const TOOL_REFERENCE_NAMES: Readonly<Record<ToolName, string>> = {
  [TOOL_NAMES.read]: 'readgateRead',
  [TOOL_NAMES.edit]: 'readgateEdit',
  [TOOL_NAMES.multiEdit]: 'readgateMultiEdit',
  [TOOL_NAMES.write]: 'readgateWrite',
  [TOOL_NAMES.applyPatch]: 'readgateApplyPatch',
};

export function isToolName(name: string): name is ToolName {
  return (Object.values(TOOL_NAMES) as string[]).includes(name);
}
