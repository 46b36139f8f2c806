/**
 * The id in a window's discovery file name (`<pid>-<id>.json`): VS Code's session id of the window, cut to the
 * characters and length a file name takes. code-server leaves it as an unfilled placeholder,
 * `someValue.sessionId`, the same in every window: such a placeholder, or an empty id, gives way to `randomId`,
 * which the caller makes once per window so the name stays put while the window lives. Pure.
 */

/** An id that names no window: empty, or a product placeholder left unfilled ("someValue.…"). */
function isPlaceholder(cleaned: string): boolean {
  return cleaned === '' || /^somevalue/i.test(cleaned);
}

export function windowFileId(sessionId: string | undefined, randomId: string): string {
  const clean = (id: string): string => id.replace(/[^\w-]/g, '').slice(0, 36);
  const cleaned = clean(sessionId ?? '');
  return isPlaceholder(cleaned) ? clean(randomId) || 'window' : cleaned;
}
