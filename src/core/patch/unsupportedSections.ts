/**
 * Sections of a git diff that ReadGate does not carry out, and what the agent or user should do instead:
 * ReadGate changes the text of regular files. A mode change (the executable bit), a symbolic link or a
 * submodule, and binary content are refused with the step that does apply them, never skipped: skipping
 * one and applying the rest would report a partial patch as applied.
 */
import { displayPath } from '../path/displayPath';

interface ModeFacts {
  oldMode?: string;
  newMode?: string;
  newFileMode?: string;
  deletedFileMode?: string;
  binary?: 'literal' | 'differ';
}

const KIND: Record<string, string> = { '120000': 'a symbolic link', '160000': 'a submodule (a gitlink)' };

const NOTHING = 'Nothing was changed.';

/** Why the section of `path` is refused, or undefined when ReadGate can carry it out. */
export function sectionRefusal(facts: ModeFacts, path: string): string | undefined {
  if (facts.binary === 'literal') {
    return `The patch changes ${displayPath(path)} with binary data ("GIT binary patch"); ReadGate applies text changes only. ${NOTHING} Apply that file's section with git apply, then the rest of the patch without it.`;
  }
  if (facts.binary === 'differ') {
    return `The patch only says that the binary file ${displayPath(path)} differs ("Binary files … differ"), without its content, so no tool can apply it. ${NOTHING} Make the patch with git diff --binary and apply that file with git apply, then the rest of the patch without it.`;
  }
  for (const mode of [facts.newFileMode, facts.deletedFileMode, facts.oldMode, facts.newMode]) {
    if (mode && KIND[mode]) {
      return `The patch ${facts.newFileMode ? 'creates' : 'changes'} ${displayPath(path)} as ${KIND[mode]} (mode ${mode}); ReadGate changes the text of regular files only. ${NOTHING} Apply that file's section with git apply${mode === '120000' ? ' (or create the link with ln -s)' : ''}, then the rest of the patch without it.`;
    }
  }
  if (facts.newFileMode && facts.newFileMode !== '100644') {
    return `The patch creates ${displayPath(path)} with mode ${facts.newFileMode} (executable); ReadGate creates files with their text only, not their mode. ${NOTHING} Apply that file's section with git apply, or create the file from the rest of the patch without its "new file mode" line and run chmod +x ${displayPath(path)}.`;
  }
  if (facts.oldMode && facts.newMode && facts.oldMode !== facts.newMode) {
    const bit =
      facts.newMode === '100755'
        ? `chmod +x ${displayPath(path)}`
        : facts.oldMode === '100755'
          ? `chmod -x ${displayPath(path)}`
          : `chmod ${facts.newMode.slice(-3)} ${displayPath(path)}`;
    return `The patch changes the mode of ${displayPath(path)} from ${facts.oldMode} to ${facts.newMode}; ReadGate changes file contents only, not modes. ${NOTHING} Apply the mode change yourself (${bit}, or git apply for that section), then apply the patch without its "old mode"/"new mode" lines.`;
  }
  return undefined;
}
