// Renders server/openapi/gateway.yaml into a standalone reference page (Redoc, through the
// installed @redocly/cli `build-docs`) under dist/gateway-docs/, served at /gateway/v1/docs.
// The page must call no outside host: the Redoc bundle the CLI would load from its CDN is copied
// next to the page (same file, so the CLI's SRI hash still holds), and telemetry is switched off
// for the build and for the page. Any URL left in a src/href attribute fails the build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCompressedTwins } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'server', 'openapi', 'gateway.yaml');
const template = path.join(root, 'scripts', 'gateway-docs.hbs');
/** Where the server looks for the page (server/src/paths.ts GATEWAY_DOCS_DIR). */
const docsDir = path.resolve(root, process.env.DIST_DIR ?? 'dist', 'gateway-docs');
/** The URL path the server serves docsDir under (server/src/gateway/docs.ts). */
const PUBLIC_PATH = '/gateway/v1/docs';
/** Replaced per request by the server with a fresh CSP nonce (server/src/gateway/docs.ts). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** True when the page is missing or older than the document or the scripts that make it. */
export function gatewayDocsAreStale() {
  const out = path.join(docsDir, 'index.html');
  if (!existsSync(out)) return true;
  const built = statSync(out).mtimeMs;
  const scripts = ['build-gateway-docs.mjs', 'precompress.mjs'].map((name) =>
    fileURLToPath(new URL(name, import.meta.url)),
  );
  return [source, template, ...scripts].some((p) => statSync(p).mtimeMs > built);
}

/** The browser bundle the CLI ships for `--inlineBundle` (and serves from its CDN otherwise). */
function redocBundlePath() {
  const require = createRequire(import.meta.url);
  const cliDir = path.dirname(require.resolve('@redocly/cli/package.json'));
  const bundle = path.join(cliDir, 'lib', 'chunks', 'redoc.standalone.js');
  if (!existsSync(bundle))
    throw new Error(`No Redoc bundle at ${bundle}: has @redocly/cli changed?`);
  return bundle;
}

// Redoc's credit ("API docs by" + logo) loads its logo from Redocly's CDN once mounted; a
// small inline SVG with the same name takes its place (img-src allows data:).
const LOGO_URLS = [
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg',
  'https://cdn.redoc.ly/redoc/logo-mini.svg',
];
const LOCAL_LOGO = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' width='52' height='14'><text x='0' y='11' " +
    "font-family='sans-serif' font-size='11' fill='#0044d4'>Redocly</text></svg>",
)}`;

/** @param {string} source the CLI's Redoc bundle; @returns {string} it with the logo made local */
function localBundle(source) {
  let bundle = source;
  for (const url of LOGO_URLS) {
    if (!bundle.includes(url))
      throw new Error(`The Redoc bundle no longer loads ${url}: recheck it`);
    bundle = bundle.replaceAll(url, LOCAL_LOGO);
  }
  // Anything else on Redocly's CDNs would be a new outside request: look at it before shipping.
  // The icon sets are fetched only for sidebar icons a document names; gateway.yaml names none
  // (and the page's CSP would block them).
  const left = (bundle.match(/https:\/\/cdn\.redoc(?:ly\.com|\.ly)\/[^`"'\s]*/g) ?? []).filter(
    (url) => !url.startsWith('https://cdn.redocly.com/icons/'),
  );
  if (left.length > 0) throw new Error(`The Redoc bundle loads: ${left.join(', ')}`);
  return bundle;
}

/**
 * URLs of other hosts that the page would load by itself: src/href of elements that fetch
 * (script, link, img, ...) and CSS url()/@import. A plain <a href> (Redoc's "API docs by Redocly"
 * credit) is only followed when clicked, so it may stay. server/src/gateway/docs.test.ts scans
 * what the server sends the same way.
 * @param {string} html
 * @returns {string[]}
 */
function externalReferences(html) {
  const offHost = String.raw`(?:https?:)?\/\/[^"'\s>)]+`;
  const patterns = [
    new RegExp(
      String.raw`<(?:script|link|img|iframe|source|audio|video|embed|object|image|use)\b[^>]*?\b(?:src|href|srcset|data)\s*=\s*["']?(${offHost})`,
      'gi',
    ),
    new RegExp(String.raw`url\(\s*["']?(${offHost})`, 'gi'),
    new RegExp(String.raw`@import\s+(?:url\()?\s*["']?(${offHost})`, 'gi'),
  ];
  return patterns.flatMap((pattern) => [...html.matchAll(pattern)].map((m) => m[1] ?? ''));
}

export function buildGatewayDocs() {
  rmSync(docsDir, { recursive: true, force: true });
  mkdirSync(docsDir, { recursive: true });
  const out = path.join(docsDir, 'index.html');
  const redocly = path.join(root, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(
    redocly,
    ['build-docs', source, '--output', out, '--template', template],
    // REDOCLY_TELEMETRY=off: the CLI reports nothing and renders `disableTelemetry: true`;
    // no update check either (a build calls no outside host).
    {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    throw new Error(`redocly build-docs failed:\n${result.stdout}\n${result.stderr}`);
  }

  const bundle = localBundle(readFileSync(redocBundlePath(), 'utf8'));
  // A content-hashed name: the server caches it as immutable and a new CLI version gets a new URL.
  const name = `redoc.${createHash('sha256').update(bundle).digest('hex').slice(0, 12)}.js`;
  writeFileSync(path.join(docsDir, name), bundle);
  writeCompressedTwins(path.join(docsDir, name), Buffer.from(bundle));

  let html = readFileSync(out, 'utf8');
  const cdn = /https:\/\/cdn\.redocly\.com\/redoc\/v[\w.-]+\/bundles\/redoc\.standalone\.js/g;
  if (!html.match(cdn))
    throw new Error('build-docs output does not load Redoc from the expected URL');
  html = html.replace(cdn, `${PUBLIC_PATH}/${name}`);
  // The CLI's SRI hash is of its own file; the page keeps SRI for the patched copy.
  const integrity = /integrity="sha384-[^"]+"/;
  if (!integrity.test(html)) throw new Error('build-docs output has no integrity attribute');
  const hash = createHash('sha384').update(bundle).digest('base64');
  html = html.replace(integrity, `integrity="sha384-${hash}"`);
  if (!html.includes('"disableTelemetry":true')) {
    throw new Error('build-docs output does not switch telemetry off');
  }
  // Every inline <script>/<style> carries the request's nonce (the CSP allows nothing else inline).
  html = html.replace(/<(script|style)\b/g, `<$1 nonce="${NONCE_PLACEHOLDER}"`);
  const external = externalReferences(html);
  if (external.length > 0) {
    throw new Error(`The reference page still references: ${external.map((m) => m[1]).join(', ')}`);
  }
  writeFileSync(out, html);
  console.log(`Built ${path.relative(root, out)} and ${name}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildGatewayDocs();
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}
