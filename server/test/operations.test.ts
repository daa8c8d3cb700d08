import { urlOf } from './operations';
import { FIXTURE_SPEC } from './testApp';

// The helper refuses what the contract does not describe, so a typo fails where it is made
// instead of reaching the router as a 404 that a test might expect anyway.
// test:pg leaves this file to SQLite: the harness's URLs; it builds no app.

describe('urlOf', () => {
  it('prefixes the path with the contract server and encodes path parameters', () => {
    const url = urlOf('checkUsername', { params: { username: 'a/b c' } });
    expect(url).toMatch(/^\/api\/.*\/a%2Fb%20c$/);
  });

  it('adds the query parameters that have a value', () => {
    const url = urlOf('fxBoard', { query: { page: 2, size: undefined } }, FIXTURE_SPEC);
    expect(url.endsWith('?page=2')).toBe(true);
    expect(urlOf('fxBoard', { query: { page: undefined } }, FIXTURE_SPEC)).not.toContain('?');
  });

  it('refuses an unknown operation, a missing path parameter and an unknown one', () => {
    expect(() => urlOf('noSuchOperation')).toThrow(/has no operation noSuchOperation/);
    expect(() => urlOf('checkUsername')).toThrow(/needs the path parameter username/);
    expect(() => urlOf('checkUsername', { params: { username: 'x', name: 'y' } })).toThrow(
      /has no path parameter name/,
    );
  });
});
