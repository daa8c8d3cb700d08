// `npm run signer -- <command>`: the operator's commands on the signer's own store (list, approve,
// reject, cap; server/src/signer/server/commands.ts), run on the signer's host from the signer's
// bundle, rebuilding it first when missing or older than the sources.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildServer, outDir, serverBuildIsStale } from './build-server.mjs';

if (serverBuildIsStale()) await buildServer();

const r = spawnSync(
  process.execPath,
  ['--enable-source-maps', path.join(outDir, 'signer.cjs'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: process.env },
);
process.exit(r.status ?? 1);
