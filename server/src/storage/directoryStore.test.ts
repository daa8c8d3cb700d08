import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { directoryFileStore } from './directoryStore';
import { BadStoredNameError, type FileStore } from './fileStore';

// The directory behind STORAGE_DIR: what the rest of the server relies on from any FileStore.

let root: string;
let dir: string;
let files: FileStore;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'portal-files-'));
  // Not there yet: the first put creates it, as on a fresh STORAGE_DIR.
  dir = path.join(root, 'uploads');
  files = directoryFileStore(dir);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const bytes = Buffer.from('picture bytes');

test('put, read and remove a file', async () => {
  expect(await files.read('a1.png')).toBeNull();
  await files.put('a1.png', bytes);
  expect(readdirSync(dir)).toEqual(['a1.png']);
  expect((await files.read('a1.png'))?.equals(bytes)).toBe(true);

  await files.remove('a1.png');
  expect(await files.read('a1.png')).toBeNull();
  expect(readdirSync(dir)).toEqual([]);
});

test('writes owner-only files', async () => {
  await files.put('b2.jpg', bytes);
  expect(statSync(path.join(dir, 'b2.jpg')).mode & 0o777).toBe(0o600);
});

test('never overwrites: a taken name is refused and keeps its bytes', async () => {
  await files.put('c3.png', bytes);
  await expect(files.put('c3.png', Buffer.from('other'))).rejects.toMatchObject({
    code: 'EEXIST',
  });
  expect((await files.read('c3.png'))?.equals(bytes)).toBe(true);
});

test('removing a name that is gone is no error', async () => {
  await expect(files.remove('d4.png')).resolves.toBeUndefined();
});

test.each([
  ['a path out of the directory', '../escape.png'],
  ['an absolute path', '/tmp/escape.png'],
  ['a subdirectory', 'sub/x.png'],
  ['another extension', 'page.svg'],
  ['no extension', 'secret'],
  ['an empty name', ''],
  ['a name with a NUL', 'a\0.png'],
])('refuses %s for every operation, touching nothing', async (_label, name) => {
  await expect(files.put(name, bytes)).rejects.toThrow(BadStoredNameError);
  await expect(files.read(name)).rejects.toThrow(BadStoredNameError);
  await expect(files.remove(name)).rejects.toThrow(BadStoredNameError);
  expect(existsSync(dir)).toBe(false);
  expect(readdirSync(root)).toEqual([]);
});

test('two stores over one directory (two processes) share their files', async () => {
  const other = directoryFileStore(dir);
  await files.put('e5.png', bytes);
  expect((await other.read('e5.png'))?.equals(bytes)).toBe(true);
  await expect(other.put('e5.png', bytes)).rejects.toMatchObject({ code: 'EEXIST' });
  await other.remove('e5.png');
  expect(await files.read('e5.png')).toBeNull();
});

it('streams a file in, shows it only once whole, and streams it out', async () => {
  const pieces = [Buffer.from('PK'), Buffer.from(' archive bytes')];
  expect(await files.putStream('arc_1.zip', Readable.from(pieces))).toBe(16);
  expect(readdirSync(dir)).toEqual(['arc_1.zip']);
  expect(statSync(path.join(dir, 'arc_1.zip')).mode & 0o777).toBe(0o600);
  const out = await files.readStream('arc_1.zip');
  const chunks: Buffer[] = [];
  for await (const chunk of out ?? []) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString()).toBe('PK archive bytes');
  expect(await files.readStream('arc_2.zip')).toBeNull();
});

it('leaves nothing behind when a streamed source fails', async () => {
  async function* failing() {
    yield Buffer.from('half');
    throw new Error('read failed');
  }
  await expect(files.putStream('arc_3.zip', Readable.from(failing()))).rejects.toThrow(
    'read failed',
  );
  expect(readdirSync(dir)).toEqual([]);
});
