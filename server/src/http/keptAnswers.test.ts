import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { testAppPerBlock } from '../../test/withTestApp';
import { keepSerialized, sendKeptEncoded, serializeAnswer } from './keptAnswers';

// Kept answers in the client's encoding: compressed once per answer and encoding, sent with the
// headers @fastify/compress would give them. The countries are kept from the start (13 KB).
// test:pg leaves this file to SQLite: an answer's encoding and headers, whatever stores its data.

describe('kept answers in the encoding the client accepts', () => {
  const t = testAppPerBlock();
  const countries = (headers: Record<string, string> = {}) =>
    t.inject({ method: 'GET', url: '/api/countries', headers });

  it('sends brotli or gzip by the Accept-Encoding, and the same JSON as uncompressed', async () => {
    const plain = await countries();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = plain.rawPayload;
    expect(JSON.parse(json.toString('utf8'))).toEqual(plain.json());

    const br = await countries({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(json.length / 2);
    expect(brotliDecompressSync(br.rawPayload)).toEqual(json);

    for (const accepted of ['gzip', 'x-gzip', '*', 'br;q=0, gzip;q=0.8']) {
      const gzip = await countries({ 'accept-encoding': accepted });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload)).toEqual(json);
    }
  });

  it('sends the bytes as they are for identity, an unknown encoding or x-no-compression', async () => {
    const plain = (await countries()).rawPayload;
    const refusals: Record<string, string>[] = [
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'compress' },
      { 'accept-encoding': 'br', 'x-no-compression': '1' },
    ];
    for (const headers of refusals) {
      const res = await countries(headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload).toEqual(plain);
    }
  });
});

describe('sendKeptEncoded', () => {
  const request = (accepted: string) =>
    ({ headers: { 'accept-encoding': accepted } }) as unknown as FastifyRequest;
  const reply = () => {
    const headers: Record<string, string> = {};
    return {
      headers,
      getHeader: (name: string) => headers[name],
      header(name: string, value: string) {
        headers[name] = value;
        return this;
      },
    } as unknown as FastifyReply & { headers: Record<string, string> };
  };
  const send = (payload: unknown, accepted = 'br', to = reply()) => {
    let sent: unknown;
    sendKeptEncoded(request(accepted), to, payload, (_err, out) => {
      sent = out;
    });
    return sent;
  };
  const answer = { data: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `row ${i}` })) };

  it('compresses a kept answer once per encoding', () => {
    const bytes = serializeAnswer(keepSerialized(structuredClone(answer)));
    const first = send(bytes);
    expect(first).not.toBe(bytes);
    expect(send(bytes)).toBe(first);
    expect(send(bytes, 'gzip')).not.toBe(first);
  });

  it('adds accept-encoding to a Vary already set, once', () => {
    const bytes = serializeAnswer(keepSerialized(structuredClone(answer)));
    const to = reply();
    to.headers.vary = 'origin';
    send(bytes, 'br', to);
    expect(to.headers.vary).toBe('origin, accept-encoding');
    send(bytes, 'br', to);
    expect(to.headers.vary).toBe('origin, accept-encoding');
  });

  it('leaves alone what is not a kept answer, or too small to compress', () => {
    const other = Buffer.from(JSON.stringify(answer));
    expect(send(other)).toBe(other);
    const small = serializeAnswer(keepSerialized({ data: [] }));
    expect(send(small)).toBe(small);
    expect(send('text')).toBe('text');
  });
});
