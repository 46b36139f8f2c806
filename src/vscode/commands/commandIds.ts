/** Every command id the extension contributes (`readgate.verbNoun`), in one place. */
export const CommandIds = {
  showLog: 'readgate.showLog',
} as const;
