import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertStoredName, type FileStore } from './fileStore';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/**
 * Files in one directory (STORAGE_DIR), owner-only. `wx` makes a name collision fail instead of
 * clobbering, also between processes sharing the directory.
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
    async read(name) {
      const file = fileOf(name);
      try {
        return await readFile(file);
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
