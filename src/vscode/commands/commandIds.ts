/** Every command id the extension contributes (`readgate.verbNoun`), in one place. */
export const CommandIds = {
  showLog: 'readgate.showLog',
  showLedger: 'readgate.showLedger',
  forgetSession: 'readgate.forgetSession',
  forgetAllSessions: 'readgate.forgetAllSessions',
  clearEndedSessions: 'readgate.clearEndedSessions',
  toggleDedup: 'readgate.toggleDedup',
  showStatistics: 'readgate.showStatistics',
  reviewPending: 'readgate.reviewPending',
  openFile: 'readgate.openFile',
  revealSeenRange: 'readgate.revealSeenRange',
  openToolResults: 'readgate.openToolResults',
  applyPatch: 'readgate.applyPatch',
  getStarted: 'readgate.getStarted',
  openSamplePatch: 'readgate.openSamplePatch',
  connectExternalAgent: 'readgate.connectExternalAgent',
  createGuardedAgent: 'readgate.createGuardedAgent',
} as const;
