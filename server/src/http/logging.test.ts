import { newApiKey } from '../domain/apps/apiKeys';
import { withTestApp } from '../../test/withTestApp';

// What the request log shows of a request: never a secret it carries, in its URL or headers.
// test:pg leaves this file to SQLite: the log's redaction of a request, whatever stores the rows.

/** The app's log, as the text it writes. */
function capturedLog() {
  const lines: string[] = [];
  const logger = { level: 'info', stream: { write: (line: string) => lines.push(line) } };
  return { text: () => lines.join(''), logger };
}

describe('the request log', () => {
  it('redacts keys and secrets in logged URLs and headers', async () => {
    const { text, logger } = capturedLog();
    const inQuery = newApiKey().key;
    const inOtherParam = newApiKey(false).key;
    const inHeader = newApiKey().key;
    await withTestApp({ logger }, async (t) => {
      const refused = await t.inject({
        method: 'GET',
        url: `/gateway/v1/deposits?api_key=${inQuery}&limit=5&x=${inOtherParam}`,
        headers: { 'x-api-key': inHeader, cookie: 'session=cookie-secret-1' },
      });
      expect(refused.statusCode).toBe(401);
      await t.inject({
        method: 'GET',
        url: '/api/countries?token=token-secret-2&Password=pw-secret-3&signature=sig-secret-4',
        headers: { authorization: 'Bearer bearer-secret-5' },
      });
      await t.inject({ method: 'GET', url: '/refund/claimTokenSecret7xxxxxxxxxxxxxxxxx?lang=fr' });
      // A line that logs a request's headers.
      t.app.log.warn(
        { headers: { authorization: 'Bearer bearer-secret-6', 'x-api-key': inHeader } },
        'Headers seen',
      );
    });
    const log = text();
    // The requests were logged, with what is not secret.
    expect(log).toContain('/gateway/v1/deposits?api_key=[redacted]&limit=5&x=[redacted]');
    expect(log).toContain(
      '/api/countries?token=[redacted]&Password=[redacted]&signature=[redacted]',
    );
    expect(log).toContain('"headers":{"authorization":"[redacted]","x-api-key":"[redacted]"}');
    expect(log).toContain('/refund/[redacted]?lang=fr');
    for (const secret of [
      inQuery,
      inOtherParam,
      inHeader,
      'cookie-secret-1',
      'token-secret-2',
      'pw-secret-3',
      'sig-secret-4',
      'bearer-secret-5',
      'bearer-secret-6',
      'claimTokenSecret7',
    ]) {
      expect([secret, log.includes(secret)]).toEqual([secret, false]);
    }
  });
});
