/**
 * WRITE_FAILED: nothing was written (or, for putBackFailed, a foreign change may be lost). The wording of each
 * situation lives here, with its code.
 */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

const IO_WORDS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large for this file system or process',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  ESHORTWRITE: 'the write stopped short',
};

/** "ENOSPC on write" → "ENOSPC on write: no space left on the device". */
function ioWords(detail: string): string {
  const words = IO_WORDS[detail.split(' ')[0]];
  return words ? `${detail}: ${words}` : detail;
}

export const writeFailed = {
  io(path: string, detail: string): Refusal {
    return refuse(
      'WRITE_FAILED',
      `Writing ${displayPath(path)} failed (${ioWords(detail)}). Nothing was changed: the file was left exactly as it was. Fix the cause (free disk space, permissions) or ask the user, then retry.`,
    );
  },
  readOnly(path: string, detail: string): Refusal {
    const mode = /mode (\d+)/.exec(detail)?.[1];
    return refuse(
      'WRITE_FAILED',
      `${displayPath(path)} is read-only${mode ? ` (mode ${mode})` : ''}: ReadGate does not replace a file nobody may write. Nothing was changed. Ask the user to make it writable if the change is wanted.`,
    );
  },
  notWritableByUser(path: string): Refusal {
    return refuse(
      'WRITE_FAILED',
      `${displayPath(path)} is not writable by this user: ReadGate does not replace a file its user may not write, even where the folder would allow it. Nothing was changed. Ask the user to change its permissions if the change is wanted.`,
    );
  },
  hardLinked(path: string, detail: string): Refusal {
    const count = /has (\d+) hard links/.exec(detail)?.[1] ?? 'several';
    return refuse(
      'WRITE_FAILED',
      `${displayPath(path)} has ${count} hard links (other names share its bytes). ReadGate does not change such a file: replacing it would split it from its other names, and rewriting it in place could leave it torn if the machine stopped mid-write. Nothing was changed. Ask the user to change it, or to break the link first (copy the file over itself with cp and mv).`,
    );
  },
  /** A deletion or a move of a file whose content is an unsaved buffer: the unsaved text would be lost. */
  unsaved(path: string, what: 'delete' | 'move'): Refusal {
    return refuse(
      'WRITE_FAILED',
      `${displayPath(path)} has unsaved changes (in an editor): ReadGate does not ${what} a file whose unsaved text would be lost. Nothing was changed. Ask the user to save or revert it, then retry.`,
    );
  },
  putBackFailed(path: string, detail: string): Refusal {
    return refuse(
      'WRITE_FAILED',
      `Your change to ${displayPath(path)} WAS written, but ${detail}: their change may be lost. Tell the user now, so they can check ${displayPath(path)}; do not retry.`,
    );
  },
  escaped(path: string, detail: string): Refusal {
    return refuse(
      'WRITE_FAILED',
      `Writing ${displayPath(path)} went wrong in a way ReadGate could not prevent: ${detail}. Someone is swapping folders of this tree as it is written. Tell the user at once; do not retry.`,
    );
  },
};
