import * as assert from 'assert';
import * as vscode from 'vscode';
import * as harness from './harness';

const EXTENSION_ID = 'readgate.readgate';

suite('extension', () => {
  test('activates and returns the API with apiVersion 1', async () => {
    const extension = vscode.extensions.getExtension<{ apiVersion: number }>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    const api = await extension.activate();
    assert.strictEqual(extension.isActive, true);
    assert.strictEqual(api.apiVersion, 1);
  });

  test('contributes "ReadGate: Show Log"', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('readgate.showLog'), 'readgate.showLog is not registered');
    const contributed = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands as { command: string; title: string; category: string }[];
    const showLog = contributed.find((c) => c.command === 'readgate.showLog');
    assert.deepStrictEqual([showLog?.category, showLog?.title], ['ReadGate', 'Show Log']);
  });

  test('"ReadGate: Show Log" opens the ReadGate log channel', async function () {
    await vscode.commands.executeCommand('readgate.showLog');
    if (!harness.isAvailable) this.skip(); // only the headless driver can see the workbench's DOM
    // The Output view shows our channel: the activation line, or (once other suites ran and the view
    // scrolled to the end) the lines of its parts, each tagged ([guard], [agents], [mcp]…).
    const text = await harness.waitFor('the ReadGate log in the Output view', async () => {
      const texts = await harness.workbenchTexts('.part.panel');
      return texts.find((t) => /\[info\] (ReadGate \d+\.\d+\.\d+ activated|\[(guard|ledger|agents|approval|mcp|problems)\])/.test(t));
    });
    assert.match(text, /\[info\] /);
    await harness.screenshot('show-log');
  });
});
