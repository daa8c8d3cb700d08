// `npm run admin -- <command>`: runs the admin CLI (server/src/admin.ts) from the server bundle,
// rebuilding it first when missing or older than the sources.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildServer, outDir, serverBuildIsStale } from './build-server.mjs';

if (serverBuildIsStale()) await buildServer();

const r = spawnSync(
  process.execPath,
  ['--enable-source-maps', path.join(outDir, 'admin.cjs'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: process.env },
);
process.exit(r.status ?? 1);
