/**
 * docs/agents.md and the README against the Connect guide (connectGuide.ts), so the page a user copies set-up
 * from and the documentation never differ: the client-by-client section is the guide written as Markdown, the
 * set-up commands written by hand elsewhere are the guide's own, and each client's row of the set-up table names
 * the file and the keys the guide writes.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { blocksOf, connectGuide, type GuideSection } from '../../../src/vscode/mcp/connectGuide';
import { connectGuideMarkdown, DOC_GUIDE_INPUT, generatedPart, withGeneratedPart } from '../../../src/vscode/mcp/connectGuideDoc';
import { repoRoot } from '../helpers/repoRoot';

const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');
const agentsDoc = () => read('docs/agents.md');

/** The guide as the documents write the bridge: `~/.readgate/mcp-bridge.js`, which a shell expands. */
const TILDE_GUIDE = connectGuide({ ...DOC_GUIDE_INPUT, bridgePath: '~/.readgate/mcp-bridge.js' });

/** A document without its generated part: what people wrote by hand. */
const handWritten = (document: string) => document.replace(generatedPart(document, 'clients') ?? '', '');

/** Set-up commands written by hand: code spans and lines of code blocks that start a client's set-up. */
function setupCommands(document: string): string[] {
  const fenced = [...document.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].flatMap((match) => match[1].split('\n').map((line) => line.replace(/\s+#.*$/, '')));
  const spans = [...document.replace(/^```\w*\n[\s\S]*?^```$/gm, '').matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
  return [...fenced, ...spans].filter((text) => /^(node ~\/\.readgate\/mcp-bridge\.js|claude mcp add |qwen mcp |GEMINI_CLI_TRUST_WORKSPACE=)/.test(text) && !text.includes('…') && !/ (hook|--forget)\b/.test(text));
}

/** Every text of a guide section: what its set-up says anywhere. */
const textOf = (section: GuideSection) => [section.intro, ...section.blocks.flatMap((block) => [block.caption, block.text]), ...section.notes].join('\n');

/** The rows of docs/agents.md's per-agent table, by their first cell. */
function setupRows(document: string): Map<string, string> {
  const section = document.slice(document.indexOf('## Putting every agent\'s edits through ReadGate'), document.indexOf('## Set-up, client by client'));
  return new Map(section.split('\n').filter((line) => line.startsWith('| ')).map((line) => [line.split('|')[1].trim(), line]));
}

suite('docs/agents.md and the README against the Connect guide', () => {
  test('the client-by-client section of docs/agents.md is the guide, written by `npm run docs`', () => {
    const part = generatedPart(agentsDoc(), 'clients');
    assert.ok(part !== undefined, 'docs/agents.md has no <!-- clients:start --> … <!-- clients:end -->');
    assert.strictEqual(part, connectGuideMarkdown(), 'docs/agents.md differs from the Connect guide: run `npm run docs`');
    const sections = connectGuide(DOC_GUIDE_INPUT);
    for (const section of sections) assert.ok(part.includes(`\n### ${section.title}\n`), section.title);
    for (const block of blocksOf(sections)) assert.ok(part.includes(`\n${block.text}\n\`\`\``), block.text);
  });

  test('every set-up command written by hand in the README and docs/agents.md is the guide\'s own', () => {
    const guideTexts = new Set(blocksOf(TILDE_GUIDE).map((block) => block.text));
    const readme = setupCommands(read('README.md'));
    assert.ok(readme.includes('node ~/.readgate/mcp-bridge.js setup claude-code') && readme.includes('node ~/.readgate/mcp-bridge.js setup codex'), readme.join('\n'));
    const docs = setupCommands(handWritten(agentsDoc()));
    assert.ok(docs.length >= 3, docs.join('\n'));
    for (const command of [...readme, ...docs]) assert.ok(guideTexts.has(command), `"${command}" is not a command of the Connect guide`);
  });

  test('each client\'s row of the set-up table names the file and the keys its guide section writes', () => {
    const rows = setupRows(agentsDoc());
    const facts: { row: string; section: string; both: string[] }[] = [
      { row: 'Claude Code', section: 'claude-code', both: ['.claude/settings.json', 'setup claude-code', 'NotebookEdit'] },
      { row: 'Codex', section: 'codex', both: ['.codex/config.toml', '~/.codex/config.toml', '[mcp_servers.readgate]', 'default_tools_approval_mode = "approve"', 'AGENTS.md'] },
      { row: 'Gemini CLI', section: 'gemini', both: ['.gemini/settings.json', '"trust": true', 'exit code 55'] },
      { row: 'Qwen Code', section: 'qwen', both: ['.qwen/settings.json', '"alwaysLoadTools": true', 'qwen mcp approve readgate'] },
      { row: 'Cline, Roo Code, Kilo Code', section: 'cline', both: ['cline_mcp_settings.json', 'readgate_*'] },
    ];
    for (const { row, section, both } of facts) {
      const line = rows.get(row);
      assert.ok(line, `no row for ${row} in ${[...rows.keys()].join(', ')}`);
      const guide = textOf(TILDE_GUIDE.find((each) => each.id === section)!);
      for (const fact of both) {
        assert.ok(line.includes(fact), `the ${row} row does not say ${fact}`);
        assert.ok(guide.includes(fact), `the guide's ${section} section does not say ${fact}`);
      }
    }
  });

  test('the Markdown keeps the guide\'s words: tags and asterisks escaped, code spans and code blocks as they are', () => {
    const markdown = connectGuideMarkdown([
      { id: 'x', title: 'X', intro: 'counted with the <untrusted_context> tags; use the readgate_* tools', blocks: [{ caption: 'Run:', text: 'node a.js `x`' }], notes: ['a `sed -i` <b>'] },
    ]);
    assert.match(markdown, /counted with the \\<untrusted_context> tags; use the readgate_\\\* tools/);
    assert.match(markdown, /\n```sh\nnode a\.js `x`\n```\n/);
    assert.match(markdown, /\n- a `sed -i` \\<b>\n/);
  });

  test('the generated part is replaced between its markers and nowhere else', () => {
    const document = 'before\n<!-- clients:start -->\nold\n<!-- clients:end -->\nafter\n';
    assert.strictEqual(generatedPart(document, 'clients'), '\nold\n');
    assert.strictEqual(withGeneratedPart(document, 'clients', '\nnew\n'), 'before\n<!-- clients:start -->\nnew\n<!-- clients:end -->\nafter\n');
    assert.strictEqual(generatedPart('no markers', 'clients'), undefined);
    assert.throws(() => withGeneratedPart('no markers', 'clients', 'x'), /no <!-- clients:start -->/);
  });
});
