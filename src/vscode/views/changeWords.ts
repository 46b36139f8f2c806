/** Short words for who changed a file, in the view and reports. */
import type { ChangeSource } from '../../core/index';

export function describeChange(source: ChangeSource): string {
  const who = { editor: 'editing in the editor', save: 'a save', session: 'another agent session', external: 'another process', git: 'git', unknown: 'someone' }[source.kind];
  return source.detail ? `${who} (${source.detail})` : who;
}
