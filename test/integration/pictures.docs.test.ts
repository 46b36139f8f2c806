/**
 * The pictures in docs/images that show ReadGate's views, taken in a window of their own: runIntegration.mjs opens
 * it after the others, on a fresh workspace, state and ReadGate home, so a picture shows only what its scene
 * stages (`npm run docs:pictures` copies them into docs/images). Each scene checks that it shows what its picture
 * is meant to show.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listWindows } from '../../src/mcp/index';
import * as harness from './harness';
import { activeDiff, agentEdit, drawn, namedFile, nodeOf } from './agentChanges';
import { api, nextReview, REVIEW_HOOK } from './helpers';
import { approveNext, ask, call, scriptedModel, settings, steps, untilChatAnswers } from './chatTurns';

const inPanel = (selector: string) => `iframe.webview.ready >> internal:control=enter-frame >> #active-frame >> internal:control=enter-frame >> ${selector}`;
const AGENT = 'Claude Code 2.1.3';

const INVENTORY = [
  "import { type Item, restock } from './restock';",
  '',
  'const threshold = 5;',
  '',
  'export function restockAll(items: Item[]): void {',
  '  for (let i = 0; i <= items.length; i++) {',
  '    if (items[i].stock < threshold) restock(items[i]);',
  '  }',
  '}',
  '',
].join('\n');

const PRICING = [
  'export const VAT = 0.2;',
  '',
  'export function withVat(net: number): number {',
  '  return net * (1 + VAT);',
  '}',
  '',
  'export function discounted(price: number, percent: number): number {',
  '  return price - price * percent;',
  '}',
  '',
].join('\n');

const SHIPPING = ['export function shippingCost(weightKg: number): number {', '  if (weightKg <= 0) return 0;', '  return 4.9 + weightKg * 1.2;', '}', ''].join('\n');

const RESTOCK = ['export interface Item {', '  stock: number;', '}', '', 'export function restock(item: Item, count: number = 1): void {', '  item.stock += count;', '}', ''].join('\n');

suite('docs pictures', () => {
  suiteSetup(async () => {
    await api();
    assert.ok(harness.isAvailable, 'the pictures need the headless driver, which sees the workbench');
  });

  test('Connect an External Agent beside the Sessions view of a window no agent has used yet', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('readgate.sessions.focus');
    await harness.waitFor('the Sessions view of a new window', async () =>
      (await harness.workbenchTexts('.part.sidebar')).some((text) => text.includes('No agent has used ReadGate in this window yet')) ? true : undefined,
    );
    await vscode.commands.executeCommand('readgate.connectExternalAgent', { enable: true });
    await harness.waitFor('the guide', async () =>
      (await harness.workbenchTexts(inPanel('body'))).some((text) => text.includes('setup claude-code') && text.includes('Codex')) ? true : undefined,
    );
    const page = (await harness.workbenchTexts(inPanel('body'))).join('\n');
    assert.ok(page.includes(path.join(process.env.READGATE_HOME ?? '', 'mcp-bridge.js')), 'the guide names the bridge in this window\'s ReadGate home');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await harness.screenshot('docs-connect-external-agent');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Sessions: what an agent has read, one file changed since by someone else', async () => {
    const inventory = namedFile('inventory.ts', INVENTORY, '.');
    const restock = namedFile('restock.ts', RESTOCK, '.');
    const agent = (await api()).openSession({ label: 'Refactoring agent' });
    try {
      assert.ok((await agent.read(inventory, { offset: 1, limit: 6 })).ok);
      assert.ok((await agent.read(restock)).ok);
      await vscode.window.showTextDocument(vscode.Uri.file(inventory));
      await vscode.commands.executeCommand('readgate.sessions.focus');
      // Room for the ranges and markers.
      await harness.sidebarWidth(harness.DEFAULT_SIDEBAR_WIDTH + 160);
      const sidebar = async (): Promise<string> => (await harness.workbenchTexts('.part.sidebar')).join('\n');
      await harness.waitFor('the files under their session', async () => {
        const text = await sidebar();
        return text.includes('Refactoring agent') && text.includes('inventory.ts') && text.includes('restock.ts') ? true : undefined;
      });
      // Let the watcher's echoes of the files' creation pass: only the change below may mark a file.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      fs.writeFileSync(restock, RESTOCK.replace('item.stock += count;', 'item.stock += Math.max(0, count);'));
      const marked = await harness.waitFor('the marker on the changed file', async () => {
        const text = await sidebar();
        return /changed outside ReadGate/.test(text) ? text : undefined;
      });
      assert.strictEqual(marked.match(/changed (outside|by|in) /g)?.length, 1, 'only the changed file is marked');
      assert.match(marked, /inventory\.ts\s*lines 1–6 of 9/);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await harness.screenshot('docs-sessions-view');
    } finally {
      agent.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test("Agent Changes: an agent's change opened beside its diff, and nothing else in the view", async () => {
    const file = namedFile('inventory.ts', INVENTORY, '.');
    const agent = await agentEdit(AGENT, file, [
      { oldString: 'i <= items.length', newString: 'i < items.length' },
      { oldString: 'restock(items[i]);', newString: 'restock(items[i], batchSize);' },
    ], 'Fix the off-by-one in the restock loop');
    const helper = path.join(path.dirname(file), 'batch.ts');
    assert.strictEqual((await agent.write(helper, 'export const batchSize = 12;\n', { explanation: 'Add the batch size' })).ok, true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('readgate.agentChanges.focus');
    const groups = await harness.waitFor('the agent in the tree', async () => {
      const items = await drawn();
      return items.some((item) => item.label === AGENT) ? items : undefined;
    });
    assert.deepStrictEqual(groups.map((item) => item.label), [AGENT], 'the view holds only the scene');
    await vscode.commands.executeCommand('workbench.actions.treeView.readgate.agentChanges.collapseAll');
    await harness.click('.part.sidebar .pane-header[aria-expanded="true"]:has-text("Sessions")');
    const diffEditor = vscode.workspace.getConfiguration('diffEditor');
    try {
      await harness.sidebarWidth(harness.DEFAULT_SIDEBAR_WIDTH + 160);
      const row = (text: string): string => `.pane:has(.pane-header:has-text("Agent Changes")) .monaco-list-row:has-text("${text}")`;
      // The agent's group open (clicked only while it is shut: a click toggles it), then its change selected.
      await harness.waitFor('the agent open in the view', async () => {
        if ((await harness.workbenchTexts(row('Fix the off-by-one'))).length > 0) return true;
        if ((await harness.workbenchTexts(`${row(AGENT)}[aria-expanded="false"]`)).length > 0) await harness.click(row(AGENT));
        return undefined;
      });
      await harness.waitFor('its change in the view', async () => (await harness.click(row('Fix the off-by-one')), true));
      // The inline diff reads whole lines beside the wider side bar.
      await diffEditor.update('renderSideBySide', false, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('readgate.openAgentChange', await nodeOf('file', agent.id, file));
      await activeDiff();
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await harness.screenshot('docs-agent-changes');
    } finally {
      await diffEditor.update('renderSideBySide', undefined, vscode.ConfigurationTarget.Global);
      agent.dispose();
    }
  });

  test('A revert over a line changed since: the review shows the conflict beside the rest of the revert', async () => {
    const file = namedFile('pricing.ts', PRICING, '.');
    const agent = await agentEdit('Codex 0.63.0', file, [
      { oldString: 'VAT = 0.2;', newString: 'VAT = 0.21;' },
      { oldString: 'price - price * percent;', newString: 'price - price * (percent / 100);' },
    ], 'Take discounts in percent and the new VAT rate');
    const change = await nodeOf('change', agent.id);
    // The user rounds the discount afterwards, in the line the agent changed.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('price - price * (percent / 100);', 'Math.round((price - price * (percent / 100)) * 100) / 100;'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.actions.treeView.readgate.agentChanges.collapseAll');
    const revert = vscode.commands.executeCommand<{ ok: boolean }>('readgate.revertChange', change);
    const request = (await nextReview()) as Awaited<ReturnType<typeof nextReview>> & { conflicts?: { ranges: { where: string }[] }[] };
    try {
      assert.deepStrictEqual(request.conflicts?.flatMap((conflict) => conflict.ranges.map((range) => range.where)), ['Line 8']);
      await harness.waitFor('the conflict in the panel', async () => ((await harness.workbenchTexts(harness.inWebview('body'))).some((text) => text.includes('1 conflict') || text.includes('1 CONFLICT')) ? true : undefined));
      // The pointer off the side bar's rows, so no tooltip covers the picture.
      await harness.click(harness.inWebview('#request-title'));
      await new Promise((resolve) => setTimeout(resolve, 800));
      await harness.screenshot('docs-revert-conflict');
    } finally {
      await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'reject', id: request.id });
      agent.dispose();
    }
    assert.strictEqual((await revert)?.ok, false);
  });

  test("An MCP client's edit waiting in the review panel, labelled with the client's name", async () => {
    const file = namedFile('shipping.ts', SHIPPING, '.');
    const entry = await harness.waitFor("this window's MCP server", async () => listWindows().find((window) => window.pid === process.pid));
    const client = new Client({ name: 'claude-code', version: '2.1.3' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.explorer');
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    try {
      await client.callTool({ name: 'readgate_read', arguments: { filePath: file } });
      const edit = client.callTool({
        name: 'readgate_edit',
        arguments: { filePath: file, oldString: 'return 4.9 + weightKg * 1.2;', newString: 'return Math.min(29, 4.9 + weightKg * 1.2);', explanation: 'Cap the shipping cost at 29, as the pricing page says' },
      });
      const request = await nextReview();
      assert.strictEqual(request.sessionLabel, 'Claude Code 2.1.3');
      await harness.waitFor('the panel naming the client', async () => ((await harness.workbenchTexts(harness.inWebview('body'))).some((text) => text.includes('Claude Code 2.1.3')) ? true : undefined));
      await harness.click(harness.inWebview('#request-title'));
      await new Promise((resolve) => setTimeout(resolve, 800));
      await harness.screenshot('docs-mcp-review');
      await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
      await edit;
      assert.match(fs.readFileSync(file, 'utf8'), /Math\.min\(29, /);
    } finally {
      await settings().update('approval.mode', undefined, vscode.ConfigurationTarget.Global);
      await client.close();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test('A turn of @readgate: the model read the file, changed it after approval, and answered', async function () {
    this.timeout(180_000);
    const file = namedFile('restock.ts', RESTOCK, '.');
    const model = await scriptedModel();
    await untilChatAnswers();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    try {
      model.setScript(
        steps(
          () => call('readgate_read', { filePath: file }),
          () => call('readgate_edit', { filePath: file, oldString: 'item.stock += count;', newString: 'item.stock += Math.max(0, count);', explanation: 'Never restock a negative count' }),
          () => [{ text: 'restock() now ignores a negative count: src/restock.ts line 6 adds Math.max(0, count).' }],
        ),
      );
      await ask('@readgate make restock() ignore a negative count in src/restock.ts', { whileRunning: approveNext });
      assert.match(fs.readFileSync(file, 'utf8'), /item\.stock \+= Math\.max\(0, count\);/);
      await harness.waitFor('the answer in the chat view', async () => (await harness.workbenchTexts('.interactive-session')).some((text) => text.includes('ignores a negative count')));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preserveFocus: true });
      await vscode.commands.executeCommand('workbench.view.explorer');
      await harness.sidebarWidth(harness.DEFAULT_SIDEBAR_WIDTH);
      await harness.click('.interactive-session >> text=/Completed \\d+ steps/').catch(() => undefined); // show the tool calls
      await new Promise((resolve) => setTimeout(resolve, 300));
      await harness.click('.interactive-session >> text=/Finished with \\d+ steps/').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 800));
      const transcript = (await harness.workbenchTexts('.interactive-session')).join('\n');
      assert.ok(transcript.includes('Reading src/restock.ts') && transcript.includes('Editing src/restock.ts'), transcript);
      await harness.screenshot('docs-chat-turn');
    } finally {
      await settings().update('approval.mode', undefined, vscode.ConfigurationTarget.Global);
      model.setScript(() => [{ text: 'idle' }]);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    }
  });
});
