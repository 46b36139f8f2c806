/** The language model tool names (API.md section 2), in one place. */
export const ToolNames = {
  read: 'readgate_read',
  edit: 'readgate_edit',
  multiEdit: 'readgate_multiEdit',
  write: 'readgate_write',
} as const;
