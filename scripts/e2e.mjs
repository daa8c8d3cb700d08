// `npm run test:e2e`: the journeys in test/e2e driving Debian's chromium-headless-shell (the same
// engine as chromium without the full browser around it: an eighth less CPU for the same
// journeys) through playwright-core, each file against its own freshly started built server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBuildIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && fs.existsSync('/usr/bin/apt-get')) {
    console.log('e2e: installing Debian chromium (apt-get install chromium-headless-shell)...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], {
      stdio: 'inherit',
      env,
    });
    if (update.status === 0 && install.status === 0 && fs.existsSync(CHROMIUM)) return;
  }
  console.error(
    `e2e: no browser at ${CHROMIUM}. Install Debian's chromium-headless-shell (as root: ` +
      'apt-get install -y chromium-headless-shell) ' +
      'or set CHROMIUM_PATH, then run npm run test:e2e again.',
  );
  process.exit(1);
}

/**
 * A Japanese font, so the journeys' Japanese screens draw their words (not empty boxes) and their
 * width checks measure real text. Installed like chromium when missing; only a warning without.
 */
function ensureJapaneseFont() {
  const FONT_DIR = '/usr/share/fonts/opentype/ipafont-gothic';
  if (fs.existsSync(FONT_DIR)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && fs.existsSync('/usr/bin/apt-get')) {
    console.log('e2e: installing a Japanese font (apt-get install fonts-ipafont-gothic)...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', 'fonts-ipafont-gothic'], {
      stdio: 'inherit',
      env,
    });
    if (update.status === 0 && install.status === 0 && fs.existsSync(FONT_DIR)) return;
  }
  console.warn(
    'e2e: no Japanese font (apt-get install -y fonts-ipafont-gothic): Japanese screens draw boxes.',
  );
}

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

ensureChromium();
ensureJapaneseFont();
const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');
if (!fs.existsSync(path.join(distDir, 'web/index.html'))) run('npm', ['run', '-s', 'build:web']);
if (serverBuildIsStale()) run('npm', ['run', '-s', 'build:server']);

// Each journey file starts its own server (test/e2e/server.ts), so two files at a time cannot
// see each other's changes (about 1m50 instead of 3m for the whole run on 2 CPUs).
const jest = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/jest/bin/jest.js'),
    '--selectProjects',
    'e2e',
    '--maxWorkers=2',
    // The longest journeys first, even without the times of an earlier run (e2e-sequencer.cjs).
    '--testSequencer',
    path.join(root, 'scripts/e2e-sequencer.cjs'),
    // testTimeout is a global option: the e2e project's own setting does not apply.
    '--testTimeout=60000',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: CHROMIUM } },
);
process.exit(jest.status ?? 1);
