import { existsSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { DB_FILE } from '../db/connection';
import { singleArgument, type ConfigCommand } from './command';

/**
 * `db backup <file>`: a consistent copy of the SQLite database while the server keeps running
 * (SQLite's online backup API: pages are copied in steps, and writes made meanwhile are
 * included). Copying portal.sqlite with cp while it is in use can produce a torn file. On
 * PostgreSQL the tool is pg_dump.
 */
export const backup: ConfigCommand = {
  name: 'db backup',
  usage: 'db backup <file>',
  description: "Copy DATA_DIR's SQLite database to <file> while the server runs (online backup).",
  async runWithConfig(args, config, io) {
    const destination = path.resolve(singleArgument(args));
    if (config.databaseUrl) {
      io.out(
        'DATABASE_URL is set: back PostgreSQL up with its own tools, e.g. ' +
          `pg_dump --format=custom --file=${destination} "$DATABASE_URL".`,
      );
      return 1;
    }
    const file = path.join(path.resolve(config.dataDir), DB_FILE);
    if (!existsSync(file)) {
      io.out(`There is no SQLite database at ${file}: nothing to back up.`);
      return 1;
    }
    if (existsSync(destination)) {
      io.out(`${destination} already exists; name a new file.`);
      return 1;
    }
    const source = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      const { totalPages } = await source.backup(destination);
      io.out(`Backed up ${file} to ${destination} (${totalPages} pages).`);
      io.out('Restore: stop the server, then put the file in place as DATA_DIR/portal.sqlite.');
      return 0;
    } finally {
      source.close();
    }
  },
};
