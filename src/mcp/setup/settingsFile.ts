/**
 * Reading an agent's settings file and replacing it atomically: the new text goes to a temp file in the same
 * folder, is fsync'ed and renamed over the file, so the agent (which may be running) never reads half a file
 * and a crash leaves the old one. The file keeps its mode; a settings file that is a link is written through
 * it, so a user's dotfiles link keeps pointing at their file.
 */
import * as fs from 'fs';
import * as path from 'path';

export type SettingsRead = { ok: true; exists: boolean; value: unknown } | { ok: false; problem: string };

export type TextRead = { ok: true; text: string | undefined } | { ok: false; problem: string };

/** The file's text, undefined when there is none. */
export function readTextFile(file: string): TextRead {
  try {
    return { ok: true, text: fs.readFileSync(file, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, text: undefined };
    return { ok: false, problem: `cannot be read (${(error as Error).message})` };
  }
}

/** A JSON settings file's text parsed; no text, or an empty file (a `touch`), holds no settings yet. */
export function parseSettingsText(text: string | undefined): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (text === undefined || text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (error) {
    return { ok: false, problem: `is not valid JSON (${(error as Error).message})` };
  }
}

export function readSettingsFile(file: string): SettingsRead {
  const read = readTextFile(file);
  if (!read.ok) return read;
  const parsed = parseSettingsText(read.text);
  return parsed.ok ? { ok: true, exists: read.text !== undefined, value: parsed.value } : parsed;
}

export function writeFileAtomic(file: string, text: string): void {
  const target = fs.existsSync(file) ? fs.realpathSync(file) : file;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const mode = fs.statSync(target, { throwIfNoEntry: false })?.mode;
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(temporary, 'wx', 0o666);
  try {
    if (mode !== undefined) fs.fchmodSync(fd, mode & 0o7777);
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(path.dirname(target));
}

/** The rename itself survives a crash once its folder is synced; not every file system lets a folder be. */
function syncFolder(folder: string): void {
  try {
    const fd = fs.openSync(folder, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // the file is in place either way
  }
}
