import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';

/**
 * Parses of the contracts kept on disk between processes, in the directory OPENAPI_PARSE_CACHE
 * names; unset (as in a server), nothing is kept. The test runner sets it: each test file starts
 * with a fresh module registry, so a process's own cache of a parse is empty at every file, and
 * parsing both contracts took about a second of every server test file. So do the journeys for
 * the servers they start, one or more a file.
 *
 * An entry is named by the hash of what it was made from (and of Node's version: the format is
 * V8's), so a changed input is parsed anew and never read stale. What cannot be read is parsed
 * again; a parse that throws is never kept. The directory keeps the ENTRIES_KEPT newest: every
 * edit of a contract makes new ones.
 */
const ENTRIES_KEPT = 24;
function entryPath(kind: string, input: string): string | undefined {
  const dir = process.env.OPENAPI_PARSE_CACHE;
  if (!dir) return undefined;
  const hash = createHash('sha256').update(`${process.version}\0${kind}\0${input}`).digest('hex');
  return path.join(dir, `${kind}-${hash}.v8`);
}

function read(file: string): { value: unknown } | undefined {
  try {
    return { value: deserialize(readFileSync(file)) };
  } catch {
    return undefined;
  }
}

function write(file: string, value: unknown): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // Written beside, then renamed: a reader in another process sees all of it or nothing.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, serialize(value));
    renameSync(partial, file);
    prune(path.dirname(file));
  } catch {
    // A cache that cannot be written is only slower.
  }
}

/** Removes all but the ENTRIES_KEPT newest entries of `dir`. */
function prune(dir: string): void {
  const entries = readdirSync(dir)
    .filter((name) => name.endsWith('.v8'))
    .map((name) => ({ name, at: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of entries.slice(ENTRIES_KEPT)) {
    rmSync(path.join(dir, name), { force: true });
  }
}

/** What `make` gives for `input`, read from disk when an earlier process kept it. */
export function keptOnDisk<T>(kind: string, input: string, make: () => T): T {
  const file = entryPath(kind, input);
  const kept = file && read(file);
  if (kept) return kept.value as T;
  const value = make();
  if (file) write(file, value);
  return value;
}

/** keptOnDisk, for a parse that takes its time. */
export async function keptOnDiskAsync<T>(
  kind: string,
  input: string,
  make: () => Promise<T>,
): Promise<T> {
  const file = entryPath(kind, input);
  const kept = file && read(file);
  if (kept) return kept.value as T;
  const value = await make();
  if (file) write(file, value);
  return value;
}
