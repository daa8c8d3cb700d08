import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

// The server's tests load viem and kysely as its built bundles do (scripts/build-server.mjs): one
// file each, not their hundreds of modules (viem's 389, kysely's 263). Jest resolves, reads and
// wraps every module again in each test file: that took about 0.6 s of CPU of each server test
// file's start. The files are built once per installed version into node_modules/.cache, and the
// server project's moduleNameMapper points the imports at them.

const root = path.resolve(__dirname, '../..');

/** What a test's `import … from '<name>'` gets: one bundle, and the subpaths read from it. */
const BUNDLES = {
  viem: "export * from 'viem';\nexport * as accounts from 'viem/accounts';\n",
  kysely: "export * from 'kysely';\n",
};
const SUBPATHS = { 'viem/accounts': ['viem', 'accounts'] } as const;

function versionOf(name: string): string {
  const manifest = path.join(root, 'node_modules', name, 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Builds the bundles when this install has none yet; returns Jest's moduleNameMapper for them. */
export function bundledDeps(): Record<string, string> {
  const names = Object.keys(BUNDLES) as (keyof typeof BUNDLES)[];
  const stamp = createHash('sha256')
    .update(JSON.stringify([BUNDLES, SUBPATHS, names.map(versionOf)]))
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(root, 'node_modules/.cache/server-test-deps', stamp);
  if (!fs.existsSync(dir)) {
    // Built aside and renamed into place: a second run starting meanwhile sees all or nothing.
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const building = fs.mkdtempSync(`${dir}.building-`);
    for (const name of names) {
      buildSync({
        stdin: { contents: BUNDLES[name], resolveDir: root, loader: 'js' },
        outfile: path.join(building, `${name}.cjs`),
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        logLevel: 'warning',
      });
    }
    for (const [subpath, [name, key]] of Object.entries(SUBPATHS)) {
      fs.writeFileSync(
        path.join(building, `${subpath.replace('/', '-')}.cjs`),
        `module.exports = require('./${name}.cjs').${key};\n`,
      );
    }
    try {
      fs.renameSync(building, dir);
    } catch (error) {
      fs.rmSync(building, { recursive: true, force: true });
      if (!fs.existsSync(dir)) throw error;
    }
  }
  const mapper: Record<string, string> = {};
  for (const name of names) mapper[`^${name}$`] = path.join(dir, `${name}.cjs`);
  for (const subpath of Object.keys(SUBPATHS)) {
    mapper[`^${subpath}$`] = path.join(dir, `${subpath.replace('/', '-')}.cjs`);
  }
  return mapper;
}
