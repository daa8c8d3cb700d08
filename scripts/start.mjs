// `npm start`: build whatever is missing or stale, then run the signer (the only process with the
// wallet seed, server/src/signer) and, once it listens, the server (API + SPA), each a child
// process with the current environment. Either ending ends the other; a signal stops both.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
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

const env = { ...process.env, PORTAL_ROOT: root };
const run = (name) =>
  spawn(process.execPath, ['--enable-source-maps', path.join(outDir, `${name}.cjs`)], {
    cwd: root,
    env,
    stdio: 'inherit',
  });

const children = [];
let exitCode = null;
function stopAll(code) {
  if (exitCode === null) exitCode = code;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
}
function watch(child) {
  children.push(child);
  child.on('exit', (code, signal) => stopAll(code ?? (signal ? 1 : 0)));
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => stopAll(0));
}

// The signer first: in development it creates the wallet seed and the xpub the server reads.
const signer = run('signer');
watch(signer);
const dataDir = path.resolve(root, process.env.DATA_DIR ?? 'data');
const where = process.env.SIGNER_SOCKET ?? path.join(dataDir, 'signer.sock');
// A socket file older than this start is a dead signer's: wait for the new one. Over TLS
// (tls://host:port) the signer listens once its port takes a connection.
const started = Date.now() - 1_000;
const socket = where.startsWith('tls://') ? null : path.resolve(where);
const listening = async () => {
  if (socket) return existsSync(socket) && statSync(socket).mtimeMs >= started;
  const url = new URL(where);
  return new Promise((resolve) => {
    const probe = net.connect(Number(url.port), url.hostname);
    probe.once('connect', () => resolve(true));
    probe.once('error', () => resolve(false));
    probe.once('connect', () => probe.destroy());
  });
};
const deadline = Date.now() + 30_000;
while (!(await listening()) && signer.exitCode === null && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100));
}
if (!(await listening())) {
  console.error(`The signer did not listen on ${where}`);
  stopAll(1);
} else if (exitCode === null) {
  watch(run('main'));
}
