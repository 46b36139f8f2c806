// `npm run docs`: writes the generated parts of docs/. docs/settings.md comes from package.json
// (settingsDoc.mjs); the client-by-client set-up in docs/agents.md (between its `clients` markers) comes from the
// Connect guide (src/vscode/mcp/connectGuideDoc.ts, bundled here with esbuild, as the extension bundles the guide).
// `--check` writes nothing and exits 1 when a file differs from what it would write; the unit tests check the same.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { settingsDoc } from './settingsDoc.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** src/vscode/mcp/connectGuideDoc.ts, loaded from an in-memory bundle. */
async function loadGuideDoc() {
  const entry = path.join(root, 'src/vscode/mcp/connectGuideDoc.ts');
  const built = await esbuild.build({ entryPoints: [entry], bundle: true, format: 'cjs', platform: 'node', target: 'node20', write: false, logLevel: 'warning' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', '__filename', '__dirname', built.outputFiles[0].text)(module, module.exports, createRequire(entry), entry, path.dirname(entry));
  return module.exports;
}

/** Every generated file as `{ file, text }`: what it should hold. */
export async function generatedDocs() {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const { connectGuideMarkdown, withGeneratedPart } = await loadGuideDoc();
  const agents = path.join(root, 'docs/agents.md');
  return [
    { file: path.join(root, 'docs/settings.md'), text: settingsDoc(manifest) },
    { file: agents, text: withGeneratedPart(fs.readFileSync(agents, 'utf8'), 'clients', connectGuideMarkdown()) },
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let differs = false;
  for (const { file, text } of await generatedDocs()) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === text) continue;
    const name = path.relative(root, file);
    if (check) {
      differs = true;
      console.error(`${name} differs from what \`npm run docs\` writes`);
    } else {
      fs.writeFileSync(file, text);
      console.log(`wrote ${name}`);
    }
  }
  if (differs) process.exit(1);
}
