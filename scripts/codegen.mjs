// Generates src/api/generated/<tag>.gen.ts from openapi.yaml, one file per tag, all injected into
// src/api/baseApi.ts. `--check` regenerates and fails (restoring the old files) when they differ.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load as loadYaml } from 'js-yaml';
import { generateEndpoints } from '@rtk-query/codegen-openapi';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemaFile = path.join(root, 'openapi.yaml');
const outDir = path.join(root, 'src/api/generated');
const check = process.argv.includes('--check');
// The generator resolves relative paths against the working directory.
process.chdir(root);

const document = loadYaml(fs.readFileSync(schemaFile, 'utf8'));
const tags = document.tags.map((tag) => tag.name);

const fileOf = (tag) => path.join(outDir, `${tag.charAt(0).toLowerCase()}${tag.slice(1)}.gen.ts`);

async function generateAll() {
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of fs.readdirSync(outDir)) {
    if (file.endsWith('.gen.ts')) fs.rmSync(path.join(outDir, file));
  }
  for (const tag of tags) {
    await generateEndpoints({
      schemaFile,
      apiFile: './src/api/baseApi.ts',
      apiImport: 'baseApi',
      exportName: `${tag.charAt(0).toLowerCase()}${tag.slice(1)}Api`,
      outputFile: path.relative(root, fileOf(tag)),
      prettierConfigFile: path.join(root, '.prettierrc.json'),
      filterEndpoints: (_name, definition) => (definition.operation.tags ?? []).includes(tag),
      // GETs that change state (x-destructive) are mutations for the cache and the success toast.
      endpointOverrides: [
        {
          pattern: (_name, definition) => definition.operation['x-destructive'] === true,
          type: 'mutation',
        },
      ],
      hooks: { queries: true, lazyQueries: true, mutations: true },
      useUnknown: true,
      encodePathParams: true,
    });
  }
}

function snapshot(dir) {
  const files = {};
  if (fs.existsSync(dir)) {
    for (const file of fs.readdirSync(dir))
      files[file] = fs.readFileSync(path.join(dir, file), 'utf8');
  }
  return files;
}

if (!check) {
  await generateAll();
  console.log(`codegen: ${tags.length} files in src/api/generated`);
} else {
  const before = snapshot(outDir);
  const backup = fs.mkdtempSync(path.join(os.tmpdir(), 'codegen-'));
  for (const [file, text] of Object.entries(before))
    fs.writeFileSync(path.join(backup, file), text);
  await generateAll();
  const after = snapshot(outDir);
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const stale = [...names].filter((file) => before[file] !== after[file]);
  // Leave the tree as it was: a check never edits generated files.
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  for (const [file, text] of Object.entries(before))
    fs.writeFileSync(path.join(outDir, file), text);
  fs.rmSync(backup, { recursive: true, force: true });
  if (stale.length) {
    console.error(
      `codegen:check: stale generated files: ${stale.join(', ')}. Run npm run codegen.`,
    );
    process.exit(1);
  }
  console.log('codegen:check: generated files are current');
}
