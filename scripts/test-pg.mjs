// `npm run test:pg`: the server's Jest suite on PostgreSQL. Starts a throwaway cluster (or uses
// TEST_DATABASE_URL), runs the `server` project's files that reach the database with every test
// on its own schema of it, stops the cluster. Extra arguments go to Jest (e.g. `npm run test:pg --
// server/src/domain`).
//
// Which files: a test reaches PostgreSQL only through TEST_DATABASE_URL (server/test/testStore.ts
// makes each test's schema or database from it; the server reads DATABASE_URL, never this). So
// the run keeps every test file that mentions TEST_DATABASE_URL or imports, directly or through
// any other module, a file that does (Jest's own --findRelatedTests); the others (pure functions,
// the Hardhat chain, the lint and bundle checks) run exactly as in `npm run test:unit`, and run
// there only. So do the files that reach it only to build an app for what no engine changes (a
// page's headers, a built bundle served, the contract's wiring) and say so on a line of their own
// (SQLITE_ONLY below, with the reason). It prints the files it leaves out.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPgCluster } from './pg-cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JEST = path.join(root, 'node_modules/jest/bin/jest.js');
// The server project's roots (jest.config.ts): the only files its tests' imports are followed in.
const ROOTS = ['server', 'scripts'];

/**
 * Every file under `dir` (no node_modules) whose text matches `pattern` (TEST_DATABASE_URL).
 * @param {string} dir @param {RegExp} [pattern]
 */
function readersIn(dir, pattern = /TEST_DATABASE_URL/) {
  /** @type {string[]} */
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') found.push(...readersIn(full, pattern));
    } else if (/\.(ts|tsx|mjs|cjs|js)$/.test(entry.name)) {
      if (pattern.test(fs.readFileSync(full, 'utf8'))) found.push(full);
    }
  }
  return found;
}

/** The server project's test files, all or those related to `files`. @param {string[]} files */
function listTests(files) {
  const related = files.length > 0 ? ['--findRelatedTests', ...files] : [];
  const run = spawnSync(
    process.execPath,
    [JEST, '--listTests', ...related, '--selectProjects', 'server'],
    // As in the run itself, so that the *.pg.test.ts files are listed.
    { cwd: root, encoding: 'utf8', env: { ...process.env, TEST_DATABASE_URL: 'postgres://list' } },
  );
  if (run.status !== 0) throw new Error(`jest --listTests failed: ${run.stderr}`);
  return run.stdout.split('\n').filter((line) => line.endsWith('.ts'));
}

// Jest follows imports only inside the project's roots: a module elsewhere between a test and
// the database would hide it. None is (web code and its harness never store anything); an import
// path, not a word such as a variable's name, is what gives one away.
const elsewhere = ['src', 'test'].flatMap((dir) =>
  readersIn(path.join(root, dir), /TEST_DATABASE_URL|\/(testStore|testApp|pg-cluster)\b/),
);
if (elsewhere.length > 0) {
  throw new Error(`test:pg: move these under server/ or scripts/: ${elsewhere.join(', ')}`);
}
const reached = listTests(ROOTS.flatMap((dir) => readersIn(path.join(root, dir))));
const left = listTests([]).filter((file) => !reached.includes(file));

/**
 * A test file's own word that what it checks is the same on both engines, and why: no money, no
 * query of its own, nothing a dialect could change. One line of its comments, e.g.
 * `// test:pg leaves this file to SQLite: HSTS is a header, whatever stores the sessions.`
 */
const SQLITE_ONLY = /^\/\/ test:pg leaves this file to SQLite: (\S.*)$/m;
/** @type {Map<string, string>} */
const sqliteOnly = new Map();
for (const file of reached) {
  const reason = SQLITE_ONLY.exec(fs.readFileSync(file, 'utf8'))?.[1];
  if (reason === undefined) continue;
  if (file.endsWith('.pg.test.ts')) throw new Error(`test:pg: ${file} needs PostgreSQL itself`);
  sqliteOnly.set(file, reason);
}
const reach = reached.filter((file) => !sqliteOnly.has(file));
console.log(
  `test:pg: ${reach.length} test files reach the database; ${left.length} never do and run on ` +
    `SQLite only (npm run test:unit):\n${left.map((file) => `  ${path.relative(root, file)}`).join('\n')}\n` +
    `and ${sqliteOnly.size} reach it but test nothing of the engine's, by their own word:\n` +
    [...sqliteOnly].map(([file, reason]) => `  ${path.relative(root, file)}: ${reason}`).join('\n'),
);

const cluster = await startPgCluster({ inMemory: true });
const jest = spawn(
  process.execPath,
  [
    JEST,
    '--filter',
    path.join(root, 'scripts/pg-test-filter.cjs'),
    // Two files at a time: each worker keeps its schemas in a database of its own
    // (server/test/testStore.ts), so no worker's teardown drops tables another one lists.
    '--maxWorkers=2',
    ...process.argv.slice(2),
    // Last: --selectProjects takes every word after it as a project name.
    '--selectProjects',
    'server',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: cluster.url, PG_TEST_FILES: JSON.stringify(reach) },
  },
);
const code = await new Promise((resolve) => jest.once('exit', (c) => resolve(c ?? 1)));
cluster.stop();
process.exit(code);
