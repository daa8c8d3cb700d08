// Gzipped JS and CSS that /login loads: the entry's files plus the "login" chunk group; and what
// the checkout page (/pay/{id}) loads: its own script and style sheet (dist/checkout).
// Fails over either budget below. Run after `npm run build` (build:web, then build:server, which
// builds the checkout's files).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'dist/web');
const groupsFile = path.join(root, 'dist/chunk-groups.json');
// The first screen's (/login's) budget: 105.2 KiB of JS before the portal had languages, plus the
// 3 KiB they may add (docs/decisions.md: Languages), plus 0.3 KiB for the runtime's map of the
// lazy chunks, which names every chunk with its hash (test mode and the exports added chunks);
// 17.4 KiB + 1 KiB of CSS. RTK Query loads after it; the rest of the fixed stack (react-dom, the
// router, RTK's core, redux-persist) is ~93 KiB (docs/decisions.md: Size budget).
const BUDGET = { js: 108.5 * 1024, css: 18.4 * 1024 };
// The checkout's own (docs/decisions.md: The checkout page): it loads nothing of the portal.
const CHECKOUT_BUDGET = { js: 15 * 1024, css: 10 * 1024 };
const checkoutManifest = path.join(root, process.env.DIST_DIR ?? 'dist', 'checkout/manifest.json');

if (!fs.existsSync(checkoutManifest)) {
  console.error('size: dist/checkout/manifest.json is missing. Run `npm run build:server` first.');
  process.exit(1);
}
if (!fs.existsSync(groupsFile)) {
  console.error('size: dist/chunk-groups.json is missing. Run `npm run build:web` first.');
  process.exit(1);
}
const { entrypoints, namedChunkGroups } = JSON.parse(fs.readFileSync(groupsFile, 'utf8'));
const assetsOf = (group) => (group?.assets ?? []).map((asset) => asset.name);
const files = new Set([...assetsOf(entrypoints.main), ...assetsOf(namedChunkGroups.login)]);

const totals = { js: 0, css: 0 };
const rows = [];
for (const file of [...files].sort()) {
  const kind = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : null;
  if (!kind) continue;
  const raw = fs.readFileSync(path.join(web, file));
  const gz = zlib.gzipSync(raw, { level: 9 }).length;
  totals[kind] += gz;
  rows.push({ file, raw: raw.length, gzip: gz });
}
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
for (const row of rows)
  console.log(`${kib(row.gzip).padStart(10)} gz  ${kib(row.raw).padStart(10)} raw  ${row.file}`);
console.log(
  `/login loads ${kib(totals.js)} JS and ${kib(totals.css)} CSS (gzipped); budget ${kib(BUDGET.js)} JS, ${kib(BUDGET.css)} CSS.`,
);
let over = totals.js > BUDGET.js || totals.css > BUDGET.css;

const checkout = JSON.parse(fs.readFileSync(checkoutManifest, 'utf8'));
const checkoutTotals = { js: 0, css: 0 };
for (const kind of /** @type {const} */ (['js', 'css'])) {
  const raw = fs.readFileSync(path.join(path.dirname(checkoutManifest), checkout[kind]));
  const gz = zlib.gzipSync(raw, { level: 9 }).length;
  checkoutTotals[kind] = gz;
  console.log(
    `${kib(gz).padStart(10)} gz  ${kib(raw.length).padStart(10)} raw  checkout/${checkout[kind]}`,
  );
}
console.log(
  `/pay/{id} loads ${kib(checkoutTotals.js)} JS and ${kib(checkoutTotals.css)} CSS (gzipped); budget ${kib(CHECKOUT_BUDGET.js)} JS, ${kib(CHECKOUT_BUDGET.css)} CSS.`,
);
over ||= checkoutTotals.js > CHECKOUT_BUDGET.js || checkoutTotals.css > CHECKOUT_BUDGET.css;
if (over) {
  console.error('size: over budget');
  process.exit(1);
}
