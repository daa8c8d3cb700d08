// `npm run test:pg`: the server's Jest suite on PostgreSQL. Starts a throwaway cluster (or uses
// TEST_DATABASE_URL), runs the `server` project with every test on its own schema of it, stops the
// cluster. Extra arguments go to Jest (e.g. `npm run test:pg -- server/src/domain`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPgCluster } from './pg-cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cluster = await startPgCluster();
const jest = spawn(
  process.execPath,
  [
    path.join(root, 'node_modules/jest/bin/jest.js'),
    ...process.argv.slice(2),
    // Last: --selectProjects takes every word after it as a project name.
    '--selectProjects',
    'server',
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: cluster.url } },
);
const code = await new Promise((resolve) => jest.once('exit', (c) => resolve(c ?? 1)));
cluster.stop();
process.exit(code);
