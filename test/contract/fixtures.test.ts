import fs from 'node:fs';
import path from 'node:path';
import { assertMatchesContract } from './openapi';

// Every test/factories/<feature>.ts exporting `fixtures` is checked, so no mock can drift.
const dir = path.resolve(__dirname, '../factories');
const all: [string, unknown][] = [];
for (const file of fs.readdirSync(dir).filter((name) => /^[a-z]\w*\.ts$/.test(name))) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(dir, file)) as { fixtures?: Record<string, unknown> };
  for (const [operationId, body] of Object.entries(mod.fixtures ?? {})) {
    all.push([`${file}: ${operationId}`, body]);
  }
}

describe('msw fixtures match openapi.yaml', () => {
  test.each(all)('%s', (name, body) => {
    const operationId = name.split(': ')[1] ?? '';
    expect(() => assertMatchesContract(operationId, 200, body)).not.toThrow();
  });

  test('a drifted fixture is caught', () => {
    expect(() =>
      assertMatchesContract('getBalance', 200, { status: true, data: { balance: 1 } }),
    ).toThrow(/does not match openapi.yaml/);
  });
});
