// Driving the served VS Code workbench in Chromium (playwright-core) as a person would: the Command Palette,
// the Get Started page, webviews (the review panel, the Connect guide) and the Sessions view. Selectors are the
// workbench's own (VS Code 1.139.1); each helper waits for what it needs rather than sleeping.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../harness/driver.mjs';

export async function until(what, probe, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last !== undefined && last !== false) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** A fresh Chromium profile under `dir`, the workbench at `url`, ReadGate activated. */
export async function openWorkbench(url, dir, env) {
  const context = await chromium.launchPersistentContext(path.join(dir, 'chromium-profile'), {
    executablePath: findChromium(),
    headless: true,
    env,
    viewport: { width: 1400, height: 900 },
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const log = fs.createWriteStream(path.join(dir, 'workbench.log'));
  page.on('console', (message) => log.write(`[console.${message.type()}] ${message.text()}\n`));
  page.on('pageerror', (error) => log.write(`[pageerror] ${error.stack || error}\n`));
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // ReadGate's activity bar entry appears once the extension's contributions are in.
  await page.locator('.activitybar [aria-label^="ReadGate"]').first().waitFor({ timeout: 60_000 });
  return { context, page };
}

/** Closes a quick input left open (Escape elsewhere has meanings of its own: it takes Get Started back to its start). */
async function closeQuickInput(page) {
  if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
}

/** Runs a command from the Command Palette by its title. */
export async function runCommand(page, title) {
  await closeQuickInput(page);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor();
  await row.click();
}

/** Opens a file of the workspace with Quick Open. */
export async function openFile(page, name) {
  await closeQuickInput(page);
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(name);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor();
  await row.click();
  await page.locator('.tab.active', { hasText: name }).waitFor();
}

/** The walkthrough's ticked steps, by title, in page order. */
export async function tickedSteps(page) {
  return page.locator('button.getting-started-step[aria-checked="true"] .step-title').allInnerTexts();
}

/** Expands a walkthrough step and clicks one of its buttons. */
export async function clickStepButton(page, stepTitle, buttonTitle) {
  const step = page.locator('button.getting-started-step', { has: page.locator('.step-title', { hasText: stepTitle }) });
  if ((await step.getAttribute('aria-expanded')) !== 'true') await step.click();
  const button = page.locator('.getting-started-step.expanded').getByRole('button', { name: buttonTitle });
  await button.waitFor();
  await button.click();
}

/** The frame of the webview that holds `selector` (the review panel, the Connect guide). */
export async function webviewFrame(page, selector, timeoutMs = 20_000) {
  return until(`a webview with ${selector}`, async () => {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      if (await frame.locator(selector).count().catch(() => 0)) return frame;
    }
    return undefined;
  }, timeoutMs);
}

/** The texts of the notifications shown (toasts). */
export async function notifications(page) {
  return page.locator('.notification-toast').allInnerTexts();
}
