/** The five tools' names, the same on every surface (README, "Language model tools"). */
export const TOOL_NAMES = {
  read: 'readgate_read',
  edit: 'readgate_edit',
  multiEdit: 'readgate_multiEdit',
  write: 'readgate_write',
  applyPatch: 'readgate_applyPatch',
} as const;

export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

export function isToolName(name: string): name is ToolName {
  return (Object.values(TOOL_NAMES) as string[]).includes(name);
}
