import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { User } from '../db/schema';
import { findUserByUsername } from '../domain/account/auth';
import type { Runtime } from '../runtime';

// What an admin command is made of. Each feature's commands (access.ts, kyc.ts, ...) build on
// this and commands.ts lists them, so no feature imports the list that imports it.

export interface CommandIo {
  out(line: string): void;
}

interface CommandInfo {
  /** Words after `npm run admin --`, e.g. `user list`. */
  name: string;
  usage: string;
  description: string;
}

/**
 * Works on the server's database (DATA_DIR's, or DATABASE_URL's), opened for it migrated to
 * latest and given the reference data; refused when there is none (runtime.ts, `existing`).
 */
export interface AdminCommand extends CommandInfo {
  /** Returns the process exit code. */
  run(args: string[], runtime: Runtime, io: CommandIo): Promise<number>;
}

/**
 * Opens the databases it needs itself: nothing is opened, created, migrated or seeded for it
 * (`db copy-to` must find DATA_DIR's SQLite file as it is and leave its target unseeded).
 */
export interface ConfigCommand extends CommandInfo {
  /** Returns the process exit code. */
  runWithConfig(args: string[], config: Config, io: CommandIo): Promise<number>;
}

export class UsageError extends Error {}

function table(rows: Record<string, string>[]): string[] {
  if (rows.length === 0) return ['(none)'];
  const cols = Object.keys(rows[0] ?? {});
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((v, i) => v.padEnd(width[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    line(cols),
    line(width.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(cols.map((c) => r[c] ?? ''))),
  ];
}

/** Prints a table (see `table`) line by line. */
export function printTable(io: CommandIo, rows: Record<string, string>[]): void {
  for (const line of table(rows)) io.out(line);
}

/** The only argument of a command that takes exactly one; otherwise a usage error. */
export function singleArgument(args: string[]): string {
  const [value, extra] = args;
  if (!value || extra !== undefined) throw new UsageError('Wrong arguments.');
  return value;
}

/** The account named `username` (any case), or undefined after saying there is none. */
export async function userNamed(
  db: Db,
  io: CommandIo,
  username: string,
): Promise<User | undefined> {
  const user = await findUserByUsername(db, username);
  if (!user) io.out(`No user named '${username}'.`);
  return user;
}
