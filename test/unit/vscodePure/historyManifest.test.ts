import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { HISTORY_DEFAULTS } from '../../../src/core/index';
import { CONTEXT_CHANGE, CONTEXT_COLLECTION, CONTEXT_FILE, CONTEXT_SESSION } from '../../../src/vscode/history/historyTree';
import { repoRoot } from '../helpers/repoRoot';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string; icon?: string }[];
    configuration: { properties: Record<string, { default?: unknown; markdownDescription?: string }> };
    views: Record<string, { id: string; icon?: string }[]>;
    viewsWelcome: { view: string; when?: string; contents: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
  };
}

const manifest = (): Manifest => JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const HISTORY_COMMANDS = ['readgate.revertChange', 'readgate.revertSession', 'readgate.revertFileToSessionStart', 'readgate.exportChangeLog', 'readgate.showFileChanges', 'readgate.openAgentChange'];

suite('the Agent Changes view in the manifest', () => {
  test('the budget settings declare the history store’s own defaults, with descriptions', () => {
    const properties = manifest().contributes.configuration.properties;
    assert.strictEqual(properties['readgate.history.maxMegabytes'].default, HISTORY_DEFAULTS.maxBytes / (1024 * 1024));
    assert.strictEqual(properties['readgate.history.maxAgeDays'].default, HISTORY_DEFAULTS.maxAgeDays);
    for (const key of ['readgate.history.maxMegabytes', 'readgate.history.maxAgeDays']) assert.ok(properties[key].markdownDescription, key);
  });

  test('the view sits in ReadGate’s container with an icon file that exists, and its welcome shows only once a listing found nothing', () => {
    const { views, viewsWelcome } = manifest().contributes;
    const view = views.readgate.find((v) => v.id === 'readgate.agentChanges');
    assert.ok(view?.icon && fs.existsSync(path.join(repoRoot, view.icon)), 'icon');
    const welcome = viewsWelcome.filter((w) => w.view === 'readgate.agentChanges');
    assert.deepStrictEqual(welcome.map((w) => w.when), ['readgate.agentChanges.state == empty', 'readgate.agentChanges.state == off']);
  });

  test('every history command is a ReadGate command with an icon; those that act on an item are not in the palette', () => {
    const { commands, menus } = manifest().contributes;
    for (const id of HISTORY_COMMANDS) {
      const command = commands.find((c) => c.command === id);
      assert.ok(command && command.category === 'ReadGate' && command.icon, id);
    }
    const hidden = menus.commandPalette.filter((entry) => entry.when === 'false').map((entry) => entry.command);
    for (const id of ['readgate.revertChange', 'readgate.revertSession', 'readgate.revertFileToSessionStart', 'readgate.openAgentChange']) assert.ok(hidden.includes(id), `${id} needs an item`);
    for (const id of ['readgate.exportChangeLog', 'readgate.showFileChanges']) assert.ok(!hidden.includes(id), `${id} works from the palette`);
  });

  // The context values are the tree model's: a menu naming another would never show.
  test('the item menus name the context values the tree gives its items; no session revert on a gathered item', () => {
    const items = manifest().contributes.menus['view/item/context'].filter((entry) => entry.when?.includes('view == readgate.agentChanges'));
    // `viewItem == readgate.historyFile` or `viewItem =~ /^readgate\.history(Change|File)$/`: the names after "history".
    const named = new Set(items.flatMap((entry) => [...(entry.when ?? '').matchAll(/history\(?([\w|]+)/g)].flatMap((m) => m[1].split('|'))));
    const known = [CONTEXT_SESSION, CONTEXT_CHANGE, CONTEXT_FILE].map((value) => value.replace('readgate.history', ''));
    assert.deepStrictEqual([...named].sort(), [...known].sort());
    assert.ok(!JSON.stringify(items).includes(CONTEXT_COLLECTION.replace('readgate.', '')), 'a gathered item offers no revert of a session');
    assert.ok(items.some((entry) => entry.command === 'readgate.revertChange' && entry.group?.startsWith('inline')), 'Revert This Change inline');
  });
});
