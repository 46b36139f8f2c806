/**
 * What an integration test may ask of the headless driver (test/harness/driver.mjs): a screenshot of the
 * workbench, the visible text of part of it, or a click or drag on it. Requests are files in $READGATE_HARNESS_DIR; with a desktop
 * VS Code there is no driver and `isAvailable` is false.
 */
import * as fs from 'fs';
import * as path from 'path';

const dir = process.env.READGATE_HARNESS_DIR;
let counter = 0;

export const isAvailable = Boolean(dir);

async function ask<T>(request: object, timeoutMs = 20_000): Promise<T> {
  if (!dir) throw new Error('no headless driver: set by test/harness/driver.mjs only');
  const id = `${process.pid}-${++counter}`;
  const responsePath = path.join(dir, `${id}.response.json`);
  fs.writeFileSync(path.join(dir, `${id}.request.json.tmp`), JSON.stringify(request));
  fs.renameSync(path.join(dir, `${id}.request.json.tmp`), path.join(dir, `${id}.request.json`));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(responsePath)) {
      const response = JSON.parse(fs.readFileSync(responsePath, 'utf8')) as { ok: boolean; error?: string } & T;
      fs.rmSync(responsePath);
      if (!response.ok) throw new Error(`driver: ${response.error}`);
      return response;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`driver did not answer ${JSON.stringify(request)} within ${timeoutMs} ms`);
}

/**
 * A Playwright selector for `selector` inside ReadGate's visible webview (its page is two iframes deep in the
 * workbench): the outer frame's address names the extension, so a Markdown preview or a panel in a background tab
 * opened by an earlier test is never the one read.
 */
export function inWebview(selector: string): string {
  return `iframe.webview.ready[src*="extensionId=readgate.readgate"] >> visible=true >> internal:control=enter-frame >> #active-frame >> internal:control=enter-frame >> ${selector}`;
}

/** Saves a screenshot of the whole workbench as `<name>.png`; returns its path. */
export async function screenshot(name: string): Promise<string> {
  return (await ask<{ path: string }>({ kind: 'screenshot', name })).path;
}

/** The rendered text of every element matching a CSS selector in the workbench (NBSPs as spaces). */
export async function workbenchTexts(selector: string): Promise<string[]> {
  const { texts } = await ask<{ texts: string[] }>({ kind: 'text', selector });
  // Editors render spaces as U+00A0.
  return texts.map((text) => text.replace(/\u00a0/g, ' '));
}

/** Clicks the first element matching a Playwright selector in the workbench (e.g. to expand a section). */
export async function click(selector: string): Promise<void> {
  await ask<object>({ kind: 'click', selector });
}

/**
 * Drags the first element matching a Playwright selector by (dx, dy) pixels, from its centre or from its right
 * border (where the workbench puts the sash that resizes a part).
 */
export async function drag(selector: string, dx: number, dy = 0, from: 'center' | 'rightEdge' = 'center'): Promise<void> {
  await ask<object>({ kind: 'drag', selector, dx, dy, from });
}

/** Where the first element matching a Playwright selector is drawn, in CSS pixels (undefined: not drawn). */
export async function boxOf(selector: string): Promise<{ x: number; y: number; width: number; height: number } | undefined> {
  return (await ask<{ box: { x: number; y: number; width: number; height: number } | null }>({ kind: 'box', selector })).box ?? undefined;
}

/** VS Code's side bar width in a new profile. */
export const DEFAULT_SIDEBAR_WIDTH = 300;

/** Sets the side bar's width (by dragging its sash), for screenshots at the width a new user has. */
export async function sidebarWidth(width = DEFAULT_SIDEBAR_WIDTH): Promise<void> {
  const box = await boxOf('.part.sidebar');
  if (!box) throw new Error('the side bar is not shown');
  if (Math.round(box.width) !== width) await drag('.part.sidebar', width - box.width, 0, 'rightEdge');
}

/** Polls `probe` until it returns a truthy value, or fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** The images matching a Playwright selector, with their natural width (0: not rendered). */
export async function images(selector: string): Promise<{ src: string | null; width: number; complete: boolean }[]> {
  return (await ask<{ images: { src: string | null; width: number; complete: boolean }[] }>({ kind: 'images', selector })).images;
}
