// `npm start`: build whatever is missing or stale, then run the server (API + SPA) in a child
// process with the current environment.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, distDir, outDir, serverBuildIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newest(path.join(target, name))));
}

// The SPA is rebuilt when missing or older than its sources (src/, public/, the contract).
const webIndex = path.join(distDir, 'web', 'index.html');
const webSources = ['src', 'public', 'openapi.yaml', 'webpack.config.ts', 'package-lock.json'];
if (newest(webIndex) < Math.max(...webSources.map((p) => newest(path.join(root, p))))) {
  console.log('The web bundle is missing or stale: running npm run build:web');
  const r = spawnSync(npm, ['run', 'build:web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('build:web failed');
    process.exit(r.status ?? 1);
  }
}

if (serverBuildIsStale()) await buildServer();

const child = spawn(process.execPath, ['--enable-source-maps', path.join(outDir, 'main.cjs')], {
  cwd: root,
  env: { ...process.env, PORTAL_ROOT: root },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
