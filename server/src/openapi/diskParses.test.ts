import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keptOnDisk } from './diskParses';

const parseCache = process.env.OPENAPI_PARSE_CACHE;
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'disk-parses-'));
  process.env.OPENAPI_PARSE_CACHE = dir;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  process.env.OPENAPI_PARSE_CACHE = parseCache;
});

test('a parse is made once for an input, then read back, Maps and all', () => {
  const make = jest.fn(() => ({ routes: new Map([['/orders', { method: 'GET' }]]) }));
  const first = keptOnDisk('test-parse', 'document one', make);
  const second = keptOnDisk('test-parse', 'document one', make);
  expect(make).toHaveBeenCalledTimes(1);
  expect(second).toEqual(first);
  expect(second).not.toBe(first);
  // Another input is another entry.
  keptOnDisk('test-parse', 'document two', make);
  expect(make).toHaveBeenCalledTimes(2);
  expect(readdirSync(dir)).toHaveLength(2);
});

test('a parse that throws is not kept, and an entry that cannot be read is made again', () => {
  expect(() =>
    keptOnDisk('test-parse', 'broken', () => {
      throw new Error('not an OpenAPI document');
    }),
  ).toThrow('not an OpenAPI document');
  expect(readdirSync(dir)).toEqual([]);

  keptOnDisk('test-parse', 'document', () => 'parsed');
  const [entry] = readdirSync(dir);
  writeFileSync(path.join(dir, entry!), 'half written');
  expect(keptOnDisk('test-parse', 'document', () => 'parsed again')).toBe('parsed again');
  expect(keptOnDisk('test-parse', 'document', () => 'not read')).toBe('parsed again');
});

test('without OPENAPI_PARSE_CACHE nothing is kept', () => {
  delete process.env.OPENAPI_PARSE_CACHE;
  const make = jest.fn(() => 'parsed');
  keptOnDisk('test-parse', 'document', make);
  keptOnDisk('test-parse', 'document', make);
  expect(make).toHaveBeenCalledTimes(2);
  expect(readdirSync(dir)).toEqual([]);
});
