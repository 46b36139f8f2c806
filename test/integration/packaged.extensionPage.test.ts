import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { EXTENSION_ID } from './helpers';

/** The extension page's README is a webview two frames deep in the workbench. */
const inReadme = (selector: string) => `iframe.webview.ready >> internal:control=enter-frame >> #active-frame >> internal:control=enter-frame >> ${selector}`;

suite('packaged: the VSIX as a user installs it', () => {
  test('ReadGate is the installed VSIX, not a development copy', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, 'ReadGate is not installed');
    assert.ok(extension.extensionPath.includes(`${path.sep}extensions${path.sep}readgate.readgate-`), extension.extensionPath);
  });

  test('its Extensions page shows the README for users, offline, without broken images (screenshot)', async function () {
    if (!harness.isAvailable) this.skip();
    // From the installed list, as a user opens it (`extension.open` asks the gallery first, which is offline here).
    await vscode.commands.executeCommand('workbench.extensions.search', '@installed ReadGate');
    await harness.waitFor('ReadGate in the installed list', async () => ((await harness.workbenchTexts('.extensions-list .monaco-list-row')).some((text) => text.includes('ReadGate')) ? true : undefined), 30_000);
    await harness.click('.extensions-list .monaco-list-row');
    await harness.waitFor('the README on the Extensions page', async () => ((await harness.workbenchTexts(inReadme('body'))).some((text) => text.includes('Try it without a language model')) ? true : undefined), 30_000);
    // VS Code renders only http(s) images there; the packaged README has none, so no broken image shows.
    assert.deepStrictEqual(await harness.images(inReadme('img')), []);
    const text = (await harness.workbenchTexts(inReadme('body'))).join('\n');
    for (const contributorOnly of ['npm run bench', 'test/harness', 'READGATE_TEST_GREP']) assert.ok(!text.includes(contributorOnly), `the page shows contributor material: ${contributorOnly}`);
    await harness.screenshot('extension-page');
  });
});
