/**
 * The approval port until the diff-preview panel exists: in a trusted workspace changes are applied as the
 * guard decided; in an untrusted one nothing is written unless the user allows it in a modal dialog that
 * names the files, the agent's reason and the start of the diff. The decision is a pure function of its two
 * inputs (is the workspace trusted, what the user answered), so it is tested without a window.
 */
import type { ApprovalDecision, ApprovalRequest } from '../../core/index';

const DIFF_PREVIEW_LINES = 40;

export interface TrustGateDeps {
  isTrusted(): boolean;
  /** Shows a modal question; resolves true when the user chose to apply the change. */
  confirm(message: string, detail: string): Promise<boolean>;
  /** A workspace-relative name for a path. */
  describePath(path: string): string;
}

export function createTrustGate(deps: TrustGateDeps): (request: ApprovalRequest) => Promise<ApprovalDecision> {
  return async (request) => {
    if (deps.isTrusted()) return { approved: true };
    const files = request.files.map((file) => `${deps.describePath(file.path)}${file.created ? ' (new)' : ''}`);
    const diff = request.files
      .map((file) => file.diff)
      .join('\n')
      .split('\n')
      .slice(0, DIFF_PREVIEW_LINES)
      .join('\n');
    const detail = [request.explanation ? `The agent says: ${request.explanation}` : '', diff].filter(Boolean).join('\n\n');
    const allowed = await deps.confirm(`This workspace is not trusted. Let an agent change ${files.join(', ')}?`, detail);
    return allowed ? { approved: true } : { approved: false, reason: 'the workspace is not trusted and the user did not allow the change' };
  };
}
