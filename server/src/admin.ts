import { UsageError, type CommandIo } from './admin/command';
import { findCommand, helpText } from './admin/commands';
import { loadConfig, type Env } from './config';
import { NoDatabaseError, openRuntime } from './runtime';

export async function runAdmin(
  argv: string[],
  io: CommandIo,
  env: Env = process.env,
): Promise<number> {
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0] ?? '')) {
    helpText().forEach((l) => io.out(l));
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    io.out(`Unknown command: ${argv.join(' ')}`);
    helpText().forEach((l) => io.out(l));
    return 2;
  }
  const { command, args } = found;
  try {
    if ('runWithConfig' in command) return await command.runWithConfig(args, loadConfig(env), io);
    // The server's database as it is (migrated to latest): a DATA_DIR or DATABASE_URL that
    // names none is refused, never made, or the command would act on a new, empty database.
    const runtime = await openRuntime(loadConfig(env), { existing: true });
    try {
      return await command.run(args, runtime, io);
    } finally {
      await runtime.close();
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.out(`${err.message}\nUsage: npm run admin -- ${command.usage}`);
      return 2;
    }
    if (err instanceof NoDatabaseError) {
      io.out(err.message);
      return 1;
    }
    throw err;
  }
}

if (require.main === module) {
  // As the server (main.ts): files an operator command creates in DATA_DIR are owner-only.
  process.umask(0o077);
  runAdmin(process.argv.slice(2), { out: (line) => console.log(line) }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
