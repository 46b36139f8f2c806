// The user settings of the VS Code that `npm start` serves: the tests' quiet, deterministic workbench
// (DEFAULT_USER_SETTINGS, shared with the test harness) plus what the demo's own claims depend on. The state of
// `npm start` survives between runs, so an existing settings file keeps the user's choices and only gets what
// the demo cannot work without.
import { DEFAULT_USER_SETTINGS } from '../test/harness/driver.mjs';

/** Set on every start, over the user's own: without them what the demo shows is not true. */
export const DEMO_REQUIRED_SETTINGS = {
  // VS Code for the Web saves after a second by default (`afterDelay`), so "unsaved text stays unsaved" and the
  // demo README's "edit without saving" could not be tried.
  'files.autoSave': 'off',
};

/** Set when the user has not chosen: the demo's starting point. */
export const DEMO_DEFAULT_SETTINGS = {
  ...DEFAULT_USER_SETTINGS,
  // An agent in another terminal reaches the demo window at once (127.0.0.1, a secret token per window).
  'readgate.mcp.enabled': true,
};

/**
 * The settings to write, given the text of the file an earlier run left (or undefined). A file that is not
 * plain JSON (VS Code's settings may hold comments) is started afresh; `replaced` says so.
 * @param {string | undefined} existingText
 * @returns {{ settings: Record<string, unknown>, replaced: boolean }}
 */
export function demoSettings(existingText) {
  let existing = {};
  let replaced = false;
  if (existingText !== undefined && existingText.trim() !== '') {
    try {
      const parsed = JSON.parse(existingText);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) existing = parsed;
      else replaced = true;
    } catch {
      replaced = true;
    }
  }
  return { settings: { ...DEMO_DEFAULT_SETTINGS, ...existing, ...DEMO_REQUIRED_SETTINGS }, replaced };
}
