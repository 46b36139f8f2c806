import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AGENT_RULES, ERROR_CODES, GUARDED_AGENT_INSTRUCTIONS, TOOL_ERROR_CODES, MCP_INSTRUCTIONS, NEVER_RETRY, REFUSAL_GUIDE, TOOL_NAMES, TOOL_REFERENCE_NAMES, agentRulesList } from '../../../src/core/index';
import { MCP_TOOLS } from '../../../src/mcp/index';
import { TOOL_INPUTS } from '../../../src/core/tools/toolInput';
import { repoRoot } from '../helpers/repoRoot';

interface Schema {
  type?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  additionalProperties?: boolean;
}

interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  icon?: string;
  displayName?: string;
  userDescription?: string;
  modelDescription: string;
  inputSchema: Schema;
}

const tools = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { languageModelTools: ToolContribution[] } }).contributes.languageModelTools;

function undescribed(schema: Schema, where: string): string[] {
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!property.description) missing.push(`${where}.${name}`);
    if (property.properties) missing.push(...undescribed(property, `${where}.${name}`));
    if (property.items?.properties) missing.push(...undescribed(property.items, `${where}.${name}[]`));
  }
  return missing;
}

// The manifest is what a model reads: every refusal must be explained there, or the agent cannot act on it.
suite('language model tool manifest', () => {
  test('contributes exactly the five tools of the contract, referencable in prompts, with icons and descriptions', () => {
    assert.deepStrictEqual(tools.map((tool) => tool.name).sort(), Object.values(TOOL_NAMES).sort());
    for (const tool of tools) {
      assert.ok(tool.toolReferenceName && tool.canBeReferencedInPrompt && tool.icon && tool.displayName && tool.userDescription, tool.name);
      assert.strictEqual(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.inputSchema.required?.length, `${tool.name} has no required inputs`);
    }
  });

  test('every model description explains every refusal code', () => {
    for (const tool of tools) {
      const missing = TOOL_ERROR_CODES.filter((code) => !tool.modelDescription.includes(code));
      assert.deepStrictEqual(missing, [], `${tool.name} does not explain ${missing.join(', ')}`);
    }
  });

  // Claude Code cuts MCP tool descriptions at 2,048 characters: readgate_read's was 2,324, and the end of its
  // refusal list and "Never retry a refused call with identical arguments" never reached the model.
  test('every description arrives whole: at most 2,000 characters, and the rule against retrying comes early', () => {
    for (const tool of [...tools, ...MCP_TOOLS.map((tool) => ({ name: `mcp ${tool.name}`, modelDescription: tool.description ?? '' }))]) {
      assert.ok(tool.modelDescription.length <= 2000, `${tool.name}: ${tool.modelDescription.length} characters`);
      assert.ok(tool.modelDescription.indexOf('Never retry a refused call with identical arguments') < 1100, tool.name);
    }
  });

  test('every input property, nested ones included, has a description', () => {
    for (const tool of tools) assert.deepStrictEqual(undescribed(tool.inputSchema, tool.name), []);
  });

  // The input check (src/core/tools/toolInput.ts) refuses fields it does not know; the schema must say so, and
  // both must name the same fields, or a model is told of a field that is refused (or the reverse).
  test('every object of every input schema is closed (additionalProperties: false) and has exactly the fields the input check takes', () => {
    const objects = (schema: Schema, where: string): [string, Schema][] => [
      [where, schema],
      ...Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [
        ...(property.type === 'object' ? objects(property, `${where}.${name}`) : []),
        ...(property.items?.type === 'object' ? objects(property.items, `${where}.${name}[]`) : []),
      ]),
    ];
    const checked = new Map<string, Record<string, string>>(Object.values(TOOL_INPUTS).map((input) => [input.where, input.fields]));
    const seen: string[] = [];
    for (const tool of tools) {
      for (const [where, schema] of objects(tool.inputSchema, tool.name)) {
        seen.push(where);
        assert.strictEqual(schema.additionalProperties, false, `${where} is open`);
        const fields = checked.get(where);
        assert.ok(fields, `the input check has no fields for ${where}`);
        assert.deepStrictEqual(Object.keys(schema.properties ?? {}).sort(), Object.keys(fields).sort(), where);
        const required = Object.entries(fields).filter(([, kind]) => !kind.endsWith('?')).map(([name]) => name);
        assert.deepStrictEqual([...(schema.required ?? [])].sort(), required.sort(), `${where} required`);
      }
    }
    assert.deepStrictEqual(seen.sort(), [...checked.keys()].sort());
  });
});

// package.json is static JSON and cannot import the core's names and instructions (src/core/tools/toolNames.ts,
// agentInstructions.ts); the chat participant, MCP and the guarded agent file do. These keep the two from drifting.
suite('package.json and the core\'s tool names and agent instructions', () => {
  const mentioned = (text: string): string[] => [...new Set(text.match(/\breadgate_\w+/g) ?? [])];

  test('each contributed tool has its name from TOOL_NAMES and its reference name from TOOL_REFERENCE_NAMES', () => {
    assert.deepStrictEqual(
      tools.map((tool) => [tool.name, tool.toolReferenceName]),
      Object.values(TOOL_NAMES).map((name) => [name, TOOL_REFERENCE_NAMES[name]]),
    );
  });

  test('every model description ends with the core\'s refusal guide, the rule against retrying first', () => {
    for (const tool of tools) assert.ok(tool.modelDescription.endsWith(REFUSAL_GUIDE), `${tool.name}: its refusal list differs from REFUSAL_GUIDE`);
    assert.ok(REFUSAL_GUIDE.startsWith(NEVER_RETRY));
    assert.deepStrictEqual(TOOL_ERROR_CODES.filter((code) => !REFUSAL_GUIDE.includes(code)), []);
    // The codes only Guard calls return (a revert's conflict) are left out: no tool can return them.
    assert.deepStrictEqual(ERROR_CODES.filter((code) => !TOOL_ERROR_CODES.includes(code)), ['REVERT_CONFLICT']);
  });

  test('descriptions and instructions name only tools that exist', () => {
    const names: string[] = Object.values(TOOL_NAMES);
    const texts = { ...Object.fromEntries(tools.map((tool) => [tool.name, tool.modelDescription])), MCP_INSTRUCTIONS, GUARDED_AGENT_INSTRUCTIONS, ...AGENT_RULES };
    for (const [where, text] of Object.entries(texts)) assert.deepStrictEqual(mentioned(text).filter((name) => !names.includes(name)), [], where);
  });

  test('every surface states the same rules: MCP\'s instructions and the guarded agent file hold each shared rule word for word', () => {
    for (const rule of [AGENT_RULES.readFirst, AGENT_RULES.changeTools, AGENT_RULES.refusals]) assert.ok(MCP_INSTRUCTIONS.includes(rule), rule);
    for (const rule of [AGENT_RULES.readFirst, AGENT_RULES.changeTools, AGENT_RULES.refusals, AGENT_RULES.review]) assert.ok(GUARDED_AGENT_INSTRUCTIONS.includes(`- ${rule}\n`), rule);
    assert.deepStrictEqual(mentioned(MCP_INSTRUCTIONS).sort(), [...Object.values(TOOL_NAMES)].sort());
    assert.ok(agentRulesList({ placeholders: true, persistedOutputs: true }).includes(AGENT_RULES.placeholder));
    assert.ok(!agentRulesList().includes(AGENT_RULES.placeholder), 'only @readgate keeps placeholders');
  });

  test('the MCP tools are the contributed tools, with the same descriptions', () => {
    assert.deepStrictEqual(MCP_TOOLS.map((tool) => [tool.name, tool.description]), tools.map((tool) => [tool.name, tool.modelDescription]));
  });
});
