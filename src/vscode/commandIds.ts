/**
 * Every palette command's id, in one place below every feature: a Command class holds its id from here
 * (`static readonly id = COMMAND_IDS.x`), and a view, status bar item or message that names a command takes it
 * from here too, so no feature imports another's command to name it (`commandManifest.test.ts` checks these
 * against package.json).
 */
export const COMMAND_IDS = {
  applyPatch: 'readgate.applyPatch',
  clearEndedSessions: 'readgate.clearEndedSessions',
  connectExternalAgent: 'readgate.connectExternalAgent',
  createGuardedAgent: 'readgate.createGuardedAgent',
  enableAgentHooks: 'readgate.enableAgentHooks',
  exportChangeLog: 'readgate.exportChangeLog',
  forgetAllSessions: 'readgate.forgetAllSessions',
  forgetSession: 'readgate.forgetSession',
  getStarted: 'readgate.getStarted',
  openAgentChange: 'readgate.openAgentChange',
  openFile: 'readgate.openFile',
  openSamplePatch: 'readgate.openSamplePatch',
  openSettings: 'readgate.openSettings',
  openToolResults: 'readgate.openToolResults',
  proposeSampleChange: 'readgate.proposeSampleChange',
  revealSeenRange: 'readgate.revealSeenRange',
  revertChange: 'readgate.revertChange',
  revertFileToSessionStart: 'readgate.revertFileToSessionStart',
  revertSession: 'readgate.revertSession',
  reviewPending: 'readgate.reviewPending',
  showFileChanges: 'readgate.showFileChanges',
  showLedger: 'readgate.showLedger',
  showLog: 'readgate.showLog',
  showStatistics: 'readgate.showStatistics',
  toggleDedup: 'readgate.toggleDedup',
} as const;
