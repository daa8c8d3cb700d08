import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withTestApp } from '../../test/withTestApp';
import { createTestApp, type TestApp } from '../../test/testApp';
import { ROOT_DIR } from '../paths';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;

// The gateway's reference page as the build renders it (scripts/build-gateway-docs.mjs, run here
// into a temp DIST_DIR) and the server sends it: its own CSP, and nothing loaded from another host.
// test:pg leaves this file to SQLite: a built page and bundle served, and error links; no rows.

const DOCS = '/gateway/v1/docs';

/** Every URL the page would load by itself: src/href/srcset of fetching elements, CSS url()/@import. */
function resourceUrls(html: string): string[] {
  const element =
    /<(?:script|link|img|iframe|source|audio|video|embed|object|image|use|input)\b[^>]*>/gi;
  const attribute = /\s(?:src|href|srcset|data|xlink:href|poster)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
  const urls: string[] = [];
  for (const [tag] of html.matchAll(element)) {
    for (const m of tag.matchAll(attribute)) urls.push(m[1] ?? m[2] ?? '');
  }
  for (const m of html.matchAll(/url\(\s*["']?([^"')\s]+)/gi)) urls.push(m[1] ?? '');
  for (const m of html.matchAll(/@import\s+(?:url\()?\s*["']?([^"')\s;]+)/gi))
    urls.push(m[1] ?? '');
  return urls;
}

/** True for a URL that names a host (absolute or protocol-relative). */
function pointsElsewhere(url: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(url.trim());
}

describe('gateway reference page', () => {
  let dist: string;
  let t: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'gateway-docs-'));
    const build = spawnSync(
      process.execPath,
      [path.join(ROOT_DIR, 'scripts', 'build-gateway-docs.mjs')],
      { cwd: ROOT_DIR, env: { ...process.env, DIST_DIR: dist }, encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    t = await createTestApp({ gatewayDocsDir: path.join(dist, 'gateway-docs') });
  }, 60_000);

  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers HTML with its own CSP: nonces for inline code, nothing from another host', async () => {
    const res = await t.inject({ method: 'GET', url: DOCS, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);

    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
    const html = res.body;
    expect(html).not.toContain('__CSP_NONCE__');
    const inline = [...html.matchAll(/<(script|style)\b([^>]*)>/g)];
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , attributes] of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    // The prerendered style="" attributes are allowed one by one, by hash.
    for (const [, value] of html.matchAll(/\sstyle="([^"]*)"/g)) {
      const hash = createHash('sha256')
        .update(value ?? '')
        .digest('base64');
      expect(csp).toContain(`'sha256-${hash}'`);
    }

    const urls = resourceUrls(html);
    expect(urls.some((url) => url.startsWith(`${DOCS}/redoc.`))).toBe(true);
    expect(urls.filter(pointsElsewhere)).toEqual([]);
    expect(html).not.toMatch(/fonts\.googleapis|fonts\.gstatic|cdn\.redoc/);
    expect(html).toContain('"disableTelemetry":true');
  });

  it('gives each answer a fresh nonce', async () => {
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const res = await t.inject({ method: 'GET', url: DOCS });
        return /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
      }),
    );
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('serves the Redoc bundle the page imports, matching its integrity hash', async () => {
    const page = await t.inject({ method: 'GET', url: DOCS });
    const preload = /<link rel="modulepreload" href="([^"]+)" integrity="sha384-([^"]+)"/.exec(
      page.body,
    );
    expect(preload).not.toBeNull();
    const [, href, integrity] = preload ?? [];
    const res = await t.inject({ method: 'GET', url: href ?? '' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(createHash('sha384').update(res.rawPayload).digest('base64')).toBe(integrity);
    // The credit's logo, the only image Redoc fetched from its CDN, is inline now.
    expect(res.body).not.toContain('cdn.redoc.ly');

    // In brotli, the build's own twin (quality 11) as it is, not one made per request.
    const br = await t.inject({
      method: 'GET',
      url: href ?? '',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const twin = readFileSync(path.join(dist, 'gateway-docs', `${path.basename(href ?? '')}.br`));
    expect(br.rawPayload).toEqual(twin);
    expect(createHash('sha384').update(brotliDecompressSync(br.rawPayload)).digest('base64')).toBe(
      integrity,
    );

    const other = await t.inject({ method: 'GET', url: `${DOCS}/redoc.000000000000.js` });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ error: { code: 'not_found', request_id: REQUEST_ID } });
  });

  it("has a section for every error code of docs/gateway.md's table, where doc_url points", async () => {
    const guide = readFileSync(path.join(ROOT_DIR, 'docs', 'gateway.md'), 'utf8');
    const codes = [...guide.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((m) => m[1] ?? '');
    expect(codes.length).toBeGreaterThan(20);
    const html = (await t.inject({ method: 'GET', url: DOCS })).body;
    const sections = new Set([...html.matchAll(/ id="section\/([^"]+)"/g)].map((m) => m[1]));
    expect(codes.filter((code) => !sections.has(code))).toEqual([]);
    // ...and the answer of an error links to one of them.
    const refused = await t.inject({ method: 'GET', url: '/gateway/v1/methods' });
    const link = new URL(refused.json().error.doc_url);
    expect(link.pathname).toBe(DOCS);
    expect(link.hash).toBe('#section/unauthenticated');
  });

  it('says the page is not built when the server has none', async () => {
    await withTestApp({}, async (bare) => {
      const res = await bare.inject({ method: 'GET', url: DOCS });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: {
          code: 'not_found',
          doc_url: docUrl('not_found'),
          message: 'The reference page is not built: run npm run build:server.',
          request_id: REQUEST_ID,
        },
      });
    });
  });
});
