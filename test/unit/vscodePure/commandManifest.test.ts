/**
 * A command knows its id: read from the sources with TypeScript's parser (the commands import `vscode`, which
 * plain Node cannot load), every command package.json contributes has exactly one Command, each Command is
 * registered once and contributed (the `readgate._test.*` hooks aside), and no other string names a contributed id.
 * A Command class takes its id from `commandIds.ts` (`static readonly id = COMMAND_IDS.x`), the one place ids are
 * written, which views and messages name them from too.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { repoRoot } from '../helpers/repoRoot';

const ADAPTER = path.join(repoRoot, 'src/vscode');
const COMMAND_IDS_FILE = path.join(ADAPTER, 'commandIds.ts');

/** `COMMAND_IDS` of commandIds.ts: each key's string literal. */
function commandIds(): Map<string, ts.StringLiteral> {
  const source = ts.createSourceFile(COMMAND_IDS_FILE, fs.readFileSync(COMMAND_IDS_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const ids = new Map<string, ts.StringLiteral>();
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && ts.isStringLiteral(node.initializer)) ids.set(node.name.getText(source), node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return ids;
}

const IDS = commandIds();
const TEST_HOOK_PREFIX = 'readgate._test.';

interface FoundCommand {
  /** The class's name, or `(object)` for a Command written as an object literal. */
  name: string;
  id: string | undefined;
  where: string;
}

interface Scan {
  commands: FoundCommand[];
  /** Class names passed as `register(new X(...))`. */
  registered: string[];
  /** Every string literal, with where it is and whether it is a Command's own id. */
  strings: { text: string; where: string; ownId: boolean }[];
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

const implementsCommand = (node: ts.ClassDeclaration): boolean =>
  (node.heritageClauses ?? []).some((clause) => clause.token === ts.SyntaxKind.ImplementsKeyword && clause.types.some((type) => type.expression.getText() === 'Command'));

const isStatic = (member: ts.ClassElement): boolean => (ts.canHaveModifiers(member) ? ts.getModifiers(member) : undefined)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword) ?? false;

/** The id a class's `static readonly id = COMMAND_IDS.x` holds (its literal in commandIds.ts). */
function staticId(node: ts.ClassDeclaration): ts.StringLiteral | undefined {
  for (const member of node.members) {
    const value = ts.isPropertyDeclaration(member) && isStatic(member) && member.name.getText() === 'id' ? member.initializer : undefined;
    if (value && ts.isPropertyAccessExpression(value) && value.expression.getText() === 'COMMAND_IDS') return IDS.get(value.name.text);
  }
  return undefined;
}

/** An object literal with an `id` string and an `execute`: a Command written in place (the test hooks). */
function objectId(node: ts.ObjectLiteralExpression): ts.StringLiteral | undefined {
  const property = (name: string) => node.properties.find((p) => p.name?.getText() === name);
  const id = property('id');
  if (!property('execute') || !id || !ts.isPropertyAssignment(id) || !ts.isStringLiteral(id.initializer)) return undefined;
  return id.initializer;
}

function scan(): Scan {
  const result: Scan = { commands: [], registered: [], strings: [] };
  for (const file of sourceFiles(ADAPTER)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node): string => `${path.relative(repoRoot, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    // commandIds.ts writes every id once: its literals are the Commands' own.
    const ownIds = new Set<ts.Node>();
    const ownFile = file === COMMAND_IDS_FILE;
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && implementsCommand(node)) {
        const id = staticId(node);
        if (id) ownIds.add(id);
        result.commands.push({ name: node.name?.text ?? '(class)', id: id?.text, where: where(node) });
      } else if (ts.isObjectLiteralExpression(node) && objectId(node)) {
        const id = objectId(node)!;
        ownIds.add(id);
        result.commands.push({ name: '(object)', id: id.text, where: where(node) });
      } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'register') {
        const argument = node.arguments[0];
        if (argument && ts.isNewExpression(argument)) result.registered.push(argument.expression.getText(source));
      }
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        result.strings.push({ text: node.text, where: where(node), ownId: ownFile || ownIds.has(node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return result;
}

const contributed = (): string[] =>
  (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);

suite('commands know their ids (package.json against the Command classes)', () => {
  const found = scan();

  test('every Command class holds its id as a static string', () => {
    const classes = found.commands.filter((command) => command.name !== '(object)');
    assert.ok(classes.length >= contributed().length, `only ${classes.length} Command classes found`);
    for (const command of classes) assert.ok(command.id, `${command.where}: ${command.name} has no \`static readonly id = COMMAND_IDS.…\` naming an id of commandIds.ts`);
  });

  test('commandIds.ts holds exactly the contributed commands, each once', () => {
    assert.deepStrictEqual([...IDS.values()].map((id) => id.text).sort(), [...contributed()].sort());
  });

  test('every contributed command has exactly one Command, and every Command is contributed (test hooks aside)', () => {
    const ids = found.commands.map((command) => command.id);
    for (const id of contributed()) {
      const owners = found.commands.filter((command) => command.id === id);
      assert.strictEqual(owners.length, 1, `${id}: ${owners.length} Commands (${owners.map((o) => o.where).join(', ')})`);
    }
    const extra = ids.filter((id): id is string => id !== undefined && !contributed().includes(id) && !id.startsWith(TEST_HOOK_PREFIX));
    assert.deepStrictEqual(extra, [], 'Commands that package.json does not contribute');
    assert.strictEqual(new Set(ids).size, ids.length, 'an id held by two Commands');
  });

  test('every Command class is registered once, with the one CommandManager', () => {
    for (const command of found.commands.filter((c) => c.name !== '(object)')) {
      const times = found.registered.filter((name) => name === command.name).length;
      assert.strictEqual(times, 1, `${command.where}: ${command.name} is registered ${times} times`);
    }
  });

  test('no other string names a contributed command: items, links and messages use the Command’s id', () => {
    const ids = new Set(contributed());
    const raw = found.strings.filter((s) => !s.ownId && (ids.has(s.text) || [...ids].some((id) => s.text.includes(`command:${id}`))));
    assert.deepStrictEqual(raw.map((s) => `${s.where}: '${s.text}'`), []);
  });
});
