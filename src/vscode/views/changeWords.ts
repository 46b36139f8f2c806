/** Short words for who changed a file, after "changed", in the view and reports: only what the notes prove. */
import type { ChangeSource } from '../../core/index';

export function describeChange(source: ChangeSource): string {
  const detail = source.detail ? ` (${source.detail})` : '';
  switch (source.kind) {
    case 'editor':
      return `in the editor${detail}`;
    case 'save':
      return 'by a save';
    case 'session':
      return `by another agent session${detail}`;
    case 'git':
      return `by git${detail}`;
    default:
      return `outside ReadGate${detail}`;
  }
}
