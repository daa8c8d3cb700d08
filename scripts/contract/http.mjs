// Turns a generated request into bytes on the wire, sends it to the base URL only (redirects are
// answers, never followed), and renders requests for reports (tokens redacted) and curl.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * @typedef {import('./arbitraries.mjs').RequestSpec} RequestSpec
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {{ method: string, url: string, headers: Record<string, string>, body: Buffer | null,
 *   bodyText: string | null, form: string[] | null }} WireRequest
 * @typedef {{ status: number, headers: Record<string, string>, bytes: Buffer, text: string,
 *   json: unknown, jsonError: string | null, ms: number }} WireResponse
 */

export const FORGED_TOKEN = 'forged.contract-check.token';
const REQUEST_TIMEOUT_MS = 15_000;
const MAX_RATE_LIMIT_WAIT_S = 30;

export class Transport {
  /** @param {string} baseUrl e.g. http://127.0.0.1:8080/api */
  constructor(baseUrl) {
    this.base = new URL(baseUrl.replace(/\/+$/, ''));
    if (!/^https?:$/.test(this.base.protocol))
      throw new Error(`the API root must be http(s): ${baseUrl}`);
    this.requests = 0;
    this.rateLimited = 0;
    /** @type {Set<string>} secrets never printed */
    this.secrets = new Set();
    this.boundary = 0;
  }

  /**
   * The wire form of a request. `token` is the bearer the auth mode calls for (or null).
   * @param {Operation} op @param {RequestSpec} req @param {string | null} token
   * @returns {WireRequest}
   */
  build(op, req, token) {
    let path = op.path;
    for (const [name, value] of Object.entries(req.path)) {
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    }
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname.replace(/\/$/, '')}${path}`;
    for (const [name, value] of Object.entries(req.query)) url.searchParams.set(name, value);
    if (url.origin !== this.base.origin) throw new Error(`refusing to leave ${this.base.origin}`);

    /** @type {Record<string, string>} */
    const headers = { accept: 'application/json, image/png, image/jpeg' };
    if (req.authHeader !== undefined) headers.authorization = req.authHeader;
    else if (token && req.keyHeader) headers[req.keyHeader] = token;
    else if (token) headers.authorization = `Bearer ${token}`;

    /** @type {Buffer | null} */
    let body = null;
    let bodyText = null;
    /** @type {string[] | null} curl -F arguments of a multipart body */
    let form = null;
    const b = req.body;
    if (b?.kind === 'json') {
      bodyText = JSON.stringify(b.value);
      body = Buffer.from(bodyText);
      headers['content-type'] = 'application/json';
    } else if (b?.kind === 'multipart') {
      this.boundary += 1;
      const boundary = `----contract-check-${this.boundary}`;
      const parts = [];
      const summary = [];
      form = [];
      for (const [name, value] of Object.entries(b.fields)) {
        parts.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
        );
        parts.push(Buffer.from(value), Buffer.from('\r\n'));
        summary.push(`${name}=${JSON.stringify(value)}`);
        form.push(`${name}=${value}`);
      }
      for (const [name, file] of Object.entries(b.files)) {
        parts.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
          ),
        );
        parts.push(file.data, Buffer.from('\r\n'));
        summary.push(`${name}=@${file.filename} (${file.contentType}, ${file.data.length} bytes)`);
        form.push(`${name}=@${file.filename};type=${file.contentType}`);
      }
      parts.push(Buffer.from(`--${boundary}--\r\n`));
      body = Buffer.concat(parts);
      bodyText = `multipart: ${summary.join('; ') || '(no parts)'}`;
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    } else if (b?.kind === 'raw') {
      body = Buffer.isBuffer(b.data) ? b.data : Buffer.from(b.data);
      bodyText = Buffer.isBuffer(b.data) ? `<${b.data.length} bytes>` : b.data;
      if (b.contentType) headers['content-type'] = b.contentType;
    }
    return { method: op.method.toUpperCase(), url: url.href, headers, body, bodyText, form };
  }

  /**
   * Sends; a 429 is waited out (Retry-After, at most 30 s) and retried once, then returned.
   * @param {WireRequest} wire @returns {Promise<WireResponse>}
   */
  async send(wire) {
    let response = await this.#once(wire);
    if (response.status === 429) {
      const wait = Math.min(Number(response.headers['retry-after']) || 1, MAX_RATE_LIMIT_WAIT_S);
      await sleep(wait * 1000);
      response = await this.#once(wire);
      if (response.status === 429) this.rateLimited += 1;
    }
    return response;
  }

  /** @param {WireRequest} wire @returns {Promise<WireResponse>} */
  async #once(wire) {
    this.requests += 1;
    const started = performance.now();
    const res = await fetch(wire.url, {
      method: wire.method,
      headers: wire.headers,
      body: wire.body ?? undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    /** @type {Record<string, string>} */
    const headers = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const text = bytes.toString('utf8');
    let json;
    let jsonError = null;
    if (/[/+]json\b/i.test(headers['content-type'] ?? '')) {
      try {
        json = JSON.parse(text);
      } catch (err) {
        jsonError = err instanceof Error ? err.message : String(err);
      }
    }
    return {
      status: res.status,
      headers,
      bytes,
      text,
      json,
      jsonError,
      ms: performance.now() - started,
    };
  }

  /** Hides session and step tokens; forged ones stay visible (they are the point). @param {string} text */
  redact(text) {
    let out = text;
    for (const secret of this.secrets) {
      if (secret) out = out.split(secret).join('<token>');
    }
    return out;
  }

  /** A readable multi-line form of a request. @param {WireRequest} wire */
  describe(wire) {
    const lines = [`${wire.method} ${wire.url}`];
    for (const [name, value] of Object.entries(wire.headers)) {
      if (name !== 'accept') lines.push(`${name}: ${value}`);
    }
    if (wire.bodyText !== null) lines.push('', truncate(wire.bodyText, 600));
    return this.redact(lines.join('\n'));
  }

  /** The same request as a curl command (JSON and raw bodies; multipart as -F parts). @param {WireRequest} wire */
  curl(wire) {
    const parts = ['curl', '-i', '-X', wire.method, shellQuote(wire.url)];
    for (const [name, value] of Object.entries(wire.headers)) {
      if (name === 'accept' || (name === 'content-type' && wire.form)) continue;
      parts.push('-H', shellQuote(`${name}: ${value}`));
    }
    if (wire.form) {
      for (const part of wire.form) parts.push('-F', shellQuote(truncate(part, 600)));
    } else if (wire.bodyText !== null) {
      parts.push('--data-binary', shellQuote(truncate(wire.bodyText, 600)));
    }
    return this.redact(parts.join(' '));
  }
}

/** @param {string} text @param {number} max */
function truncate(text, max) {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** @param {string} value */
export function shellQuote(value) {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
