import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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

test('the directory keeps the 24 newest entries: every edit of a contract makes new ones', () => {
  const keptNames = new Set<string>();
  for (let edit = 0; edit < 24; edit += 1) {
    keptOnDisk('test-parse', `edit ${edit}`, () => edit);
    // Each older than the next, whatever the file system's clock resolution.
    const [entry] = readdirSync(dir).filter((name) => !keptNames.has(name));
    keptNames.add(entry!);
    const at = new Date(Date.UTC(2026, 0, 1, 0, edit));
    utimesSync(path.join(dir, entry!), at, at);
  }
  expect(readdirSync(dir)).toHaveLength(24);
  keptOnDisk('test-parse', 'edit 24', () => 24);
  expect(readdirSync(dir)).toHaveLength(24);
  // The oldest went; the rest are still read back.
  expect(keptOnDisk('test-parse', 'edit 0', () => 'parsed anew')).toBe('parsed anew');
  expect(keptOnDisk('test-parse', 'edit 23', () => 'not read')).toBe(23);
});
