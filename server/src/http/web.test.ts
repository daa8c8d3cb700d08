import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, FIXTURE_SPEC, type TestApp } from '../../test/testApp';
import { cacheControlFor, isApiUrl, SPA_CSP } from './web';

// test:pg leaves this file to SQLite: the built SPA's files and headers, served from disk.

describe('SPA serving', () => {
  let webDir: string;
  let t: TestApp;
  const bigJs = `console.log(${JSON.stringify('x'.repeat(5000))});`;
  // Not what the server would make on the fly (quality 4): its own bytes show it was sent as is.
  const brotliedJs = brotliCompressSync(bigJs);
  // What the build inlines into a prerendered page: the CSS its markup uses.
  const critical = 'body{margin:0}.auth-shell{display:flex}';
  const criticalSource = `'sha256-${createHash('sha256').update(critical).digest('base64')}'`;
  const loginPage = `<!doctype html><title>Sign In</title><style>${critical}</style>`;
  // Its twin as the build writes it (webpack.config.ts).
  const brotliedLoginPage = brotliCompressSync(loginPage);

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Portal</title>');
    writeFileSync(path.join(webDir, 'assets', 'main.3fa9c1d2.js'), bigJs);
    // A chunk as the build writes it: with its brotli twin (webpack.config.ts), and no gzip one.
    writeFileSync(path.join(webDir, 'assets', 'vendor.5be0aa11.js'), bigJs);
    writeFileSync(path.join(webDir, 'assets', 'vendor.5be0aa11.js.br'), brotliedJs);
    writeFileSync(path.join(webDir, 'robots.txt'), 'User-agent: *');
    mkdirSync(path.join(webDir, 'pages'));
    writeFileSync(path.join(webDir, 'pages', 'login.html'), loginPage);
    writeFileSync(path.join(webDir, 'pages', 'login.html.br'), brotliedLoginPage);
    writeFileSync(
      path.join(webDir, 'pages.json'),
      JSON.stringify({ '/login': 'pages/login.html' }),
    );
    t = await createTestApp({ specification: FIXTURE_SPEC, webDir });
  });

  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  it('serves index.html for the root and client routes, never cached', async () => {
    for (const url of ['/', '/register', '/app/dashboard', '/app/my-app/app_1?tab=keys']) {
      const res = await t.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>Portal</title>');
      expect(res.headers['content-security-policy']).toBe(SPA_CSP);
    }
  });

  it("serves a route's own page where the build made one (pages.json), whatever its case", async () => {
    for (const url of ['/login', '/Login/', '/login?next=1']) {
      const res = await t.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>Sign In</title>');
      // Its inline critical CSS, and only that, by its hash; the rest of the policy unchanged.
      expect(res.headers['content-security-policy']).toBe(
        SPA_CSP.replace("style-src 'self'", `style-src 'self' ${criticalSource}`),
      );
    }
  });

  it("sends a page's compressed twin as it is, with the page's own headers", async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/login',
      headers: { ...html, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(
      SPA_CSP.replace("style-src 'self'", `style-src 'self' ${criticalSource}`),
    );
    expect(res.rawPayload).toEqual(brotliedLoginPage);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(loginPage);
  });

  it('sends a strict Content-Security-Policy with the shell and the files', async () => {
    const policy = new Map(
      SPA_CSP.split('; ').map((directive) => {
        const [name = '', ...sources] = directive.split(' ');
        return [name, sources.join(' ')];
      }),
    );
    expect(Object.fromEntries(policy)).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data: blob:",
      'font-src': "'self'",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
    for (const url of ['/', '/index.html', '/assets/main.3fa9c1d2.js', '/robots.txt']) {
      const res = await t.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toBe(SPA_CSP);
    }
  });

  it('serves hashed assets as immutable, compressed on request', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/assets/main.3fa9c1d2.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    const plain = await t.inject({ method: 'GET', url: '/robots.txt' });
    expect(plain.headers['cache-control']).toBe('public, max-age=3600');
  });

  it("sends the build's compressed twin of an asset as it is, else compresses on the fly", async () => {
    const asset = (encoding: string) =>
      t.inject({
        method: 'GET',
        url: '/assets/vendor.5be0aa11.js',
        headers: { 'accept-encoding': encoding },
      });
    const br = await asset('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload).toEqual(brotliedJs);
    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(bigJs);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigJs);
    const plain = await asset('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bigJs);
  });

  it('keeps /api answers and missing assets as 404 envelopes', async () => {
    // A raw URL: no operation of the contract has this path.
    const api = await t.inject({ method: 'GET', url: '/api/nothing-here', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ status: false });
    const asset = await t.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(asset.statusCode).toBe(404);
  });

  it('classifies cache headers by file name', () => {
    expect(cacheControlFor('/x/dist/web/index.html')).toBe('no-cache');
    expect(cacheControlFor('/x/dist/web/assets/logo.svg')).toMatch(/immutable/);
    expect(cacheControlFor('/x/dist/web/vendor.0123abcd.css')).toMatch(/immutable/);
    expect(cacheControlFor('/x/dist/web/favicon.ico')).toBe('public, max-age=3600');
  });
});

describe('isApiUrl', () => {
  it('takes /api and below, with or without a query, and nothing that only starts alike', () => {
    for (const url of ['/api', '/api/', '/api/dashboard', '/api?x=1', '/api/countries?q=a']) {
      expect([url, isApiUrl(url)]).toEqual([url, true]);
    }
    for (const url of ['/', '/apis', '/api-docs', '/app/dashboard', '/gateway/v1/deposits', '']) {
      expect([url, isApiUrl(url)]).toEqual([url, false]);
    }
  });
});
