import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../domain/ids';
import { assertStoredName, type FileStore } from './fileStore';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/**
 * Files in one directory (STORAGE_DIR), owner-only. `wx` makes a name collision fail instead of
 * clobbering, also between processes sharing the directory. A streamed file is written under a
 * hidden name of its own, then renamed: no reader ever sees half of it.
 */
export function directoryFileStore(dir: string): FileStore {
  const fileOf = (name: string) => {
    assertStoredName(name);
    return path.join(dir, name);
  };
  return {
    async put(name, bytes) {
      const file = fileOf(name);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(file, bytes, { flag: 'wx', mode: 0o600 });
    },
    async putStream(name, source) {
      const file = fileOf(name);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const partial = path.join(dir, `.${name}.${randomToken(8)}.part`);
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, counter, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, file);
      } catch (error) {
        await unlink(partial).catch(() => undefined);
        throw error;
      }
      return size;
    },
    async read(name) {
      const file = fileOf(name);
      try {
        return await readFile(file);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async readStream(name) {
      const file = fileOf(name);
      try {
        // Opened first, so a missing file is a null here rather than an error mid-answer.
        const handle = await open(file, 'r');
        return handle.createReadStream();
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(name) {
      const file = fileOf(name);
      try {
        await unlink(file);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
  };
}
