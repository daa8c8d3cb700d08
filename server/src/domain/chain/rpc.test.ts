import { closeProviderPools, ProviderPool } from './rpc';

// A provider's URL holds its API key: what a failed call throws, and so what the logs write,
// names the provider by its place and host, never by its URL.

afterAll(() => closeProviderPools());

it("a failed call's error names the provider's host, never its URL's key", async () => {
  // Nothing listens on port 9 of loopback: the call fails at once.
  const url = 'http://127.0.0.1:9/v3/0123456789abcdef0123456789abcdef?key=secret-token';
  const pool = new ProviderPool(56, [url], { timeoutMs: 2_000 });
  const error = await pool.client.getBlockNumber().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  const texts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    texts.push(String(e), e.stack ?? '', JSON.stringify(e));
  }
  const all = texts.join('\n');
  expect(all).toContain('[RPC 1:127.0.0.1:9]');
  expect(all).not.toContain('0123456789abcdef');
  expect(all).not.toContain('secret-token');
});
