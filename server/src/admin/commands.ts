import { accessCommands } from './access';
import { backup } from './backup';
import { benchCommands } from './benchData';
import { chainCommands } from './chain';
import { copyTo } from './copyTo';
import { jobCommands } from './jobs';
import { kycCommands } from './kyc';
import { moneyCommands } from './money';
import { rateCommands } from './rates';
import { securityCommands } from './security';
import { printTable, type AdminCommand, type ConfigCommand } from './command';

const userList: AdminCommand = {
  name: 'user list',
  usage: 'user list',
  description: 'List accounts (username, e-mail, second factor, KYC status, last login).',
  async run(_args, { db }, io) {
    const users = await db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'name', 'auth_type', 'status_kyc', 'last_login_at'])
      .orderBy('created_at')
      .execute();
    printTable(
      io,
      users.map((u) => ({
        id: u.id,
        username: u.username,
        email: u.email,
        name: u.name,
        auth_type: u.auth_type,
        kyc: String(u.status_kyc),
        last_login: u.last_login_at ?? '-',
      })),
    );
    return 0;
  },
};

// One entry per command; each feature's commands live beside it (admin/<feature>.ts).
export const COMMANDS: (AdminCommand | ConfigCommand)[] = [
  userList,
  ...accessCommands,
  ...securityCommands,
  ...kycCommands,
  ...moneyCommands,
  ...jobCommands,
  ...chainCommands,
  ...rateCommands,
  copyTo,
  backup,
  ...benchCommands,
];

export function helpText(): string[] {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length), 4);
  return [
    'Usage: npm run admin -- <command> [args]',
    '',
    'Operates on the database in DATA_DIR (default ./data) or at DATABASE_URL, the one',
    '`npm start` uses with the same variables; it never creates one.',
    '',
    'Commands:',
    `  ${'help'.padEnd(width)}  Show this help.`,
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`),
  ];
}

/** Longest command name that prefixes the argument words wins. */
export function findCommand(
  argv: string[],
): { command: AdminCommand | ConfigCommand; args: string[] } | null {
  let best: { command: AdminCommand | ConfigCommand; args: string[] } | null = null;
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (
      words.every((w, i) => argv[i] === w) &&
      (!best || words.length > best.command.name.split(' ').length)
    ) {
      best = { command, args: argv.slice(words.length) };
    }
  }
  return best;
}
