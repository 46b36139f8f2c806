/** Checks a message from the webview against the protocol; anything else is ignored (untrusted input). */
import type { FromWebview } from './protocol';

function isStringArrayRecord(value: unknown): value is Record<string, number[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((list) => Array.isArray(list) && list.every((n) => typeof n === 'number'));
}

export function parseWebviewMessage(message: unknown): FromWebview | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'approve':
      // An approval must name the revision of the diff the user saw: without it, a diff recomputed after a
      // change during review could be approved unseen.
      return typeof m.id === 'string' && isStringArrayRecord(m.rejectedHunks) && Number.isInteger(m.revision)
        ? {
            type: 'approve',
            id: m.id,
            rejectedHunks: m.rejectedHunks,
            revision: m.revision as number,
            ...(m.allowFurtherEdits === true ? { allowFurtherEdits: true } : {}),
            ...(m.takeMerged === true ? { takeMerged: true } : {}),
          }
        : undefined;
    case 'reject':
      return typeof m.id === 'string' && (m.reason === undefined || typeof m.reason === 'string')
        ? { type: 'reject', id: m.id, ...(typeof m.reason === 'string' && m.reason.trim() ? { reason: m.reason.trim().slice(0, 2000) } : {}) }
        : undefined;
    case 'openDiff':
      return typeof m.id === 'string' && typeof m.path === 'string' ? { type: 'openDiff', id: m.id, path: m.path } : undefined;
    default:
      return undefined;
  }
}
