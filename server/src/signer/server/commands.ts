import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseUnits } from 'viem';
import { PAYMENT_METHODS } from '../../domain/chain/paymentMethods';
import { unitsToDecimal } from '../../domain/money';
import { methodDecimals } from './caps';
import { STORE_FILE, SignerStore } from './store';

// The operator's commands, run on the signer's host against its own store (`npm run signer --
// <command>`), never over HTTP: the web process has no say in them.
//   list                          money out held beyond a daily cap, waiting for a decision
//   approve <id> / reject <id>    lets that one request through the cap / makes the signer refuse it
//                                 (one undecided for SIGNER_APPROVAL_HOURS is refused anyway)
//   cap <app> <method> <amount>   sets the app's daily cap of a method (its units), at once

const SIGNER_COMMANDS = ['list', 'approve', 'reject', 'cap'] as const;

const USAGE = [
  'Usage: npm run signer -- <command>',
  '  list                           requests held beyond a daily cap, waiting for a decision',
  '  approve <id>                   lets that request through the cap (it goes out at the next pass)',
  '  reject <id>                    the signer refuses it (the withdrawal ends Unsuccessful)',
  "  cap <app id> <method> <amount> sets the app's daily cap of a method, in its units (e.g. 5000)",
];

/** A method by its id (pm_usdt_bsc) or its code (USDT-BEP20). */
function methodOf(name: string) {
  return PAYMENT_METHODS.find((m) => m.id === name || m.code === name);
}

function amountOf(paymentMethodId: string, raw: string): string {
  const method = PAYMENT_METHODS.find((m) => m.id === paymentMethodId);
  return `${unitsToDecimal(BigInt(raw), method?.decimals ?? 0)} ${method?.code ?? paymentMethodId}`;
}

/**
 * Runs one command against the store in `storeDir`; answers the exit code. Never makes a store:
 * a command pointed at the wrong directory says so.
 */
export function runSignerCommand(
  args: readonly string[],
  storeDir: string,
  out: (line: string) => void,
  now: Date,
): number {
  const [command, ...rest] = args;
  if (!SIGNER_COMMANDS.includes(command as (typeof SIGNER_COMMANDS)[number])) {
    USAGE.forEach((line) => out(line));
    return 2;
  }
  if (!existsSync(path.join(storeDir, STORE_FILE))) {
    out(
      `No signer store in ${storeDir}: run this on the signer's host, with its SIGNER_STORE_DIR or DATA_DIR.`,
    );
    return 1;
  }
  const store = SignerStore.open(storeDir);
  try {
    return run(store, command ?? '', rest, out, now);
  } finally {
    store.close();
  }
}

function run(
  store: SignerStore,
  command: string,
  args: readonly string[],
  out: (line: string) => void,
  now: Date,
): number {
  if (command === 'list') {
    const pending = store.pendingApprovals(now.getTime());
    if (pending.length === 0) out('(none)');
    for (const a of pending) {
      out(
        `${a.id}  ${a.kind} ${a.refId}  app ${a.appId}  ${amountOf(a.paymentMethodId, a.amountRaw)} to ${a.destination}  held since ${new Date(a.createdAt).toISOString()}, refused unless decided by ${new Date(a.expiresAt).toISOString()}`,
      );
    }
    return 0;
  }
  if (command === 'approve' || command === 'reject') {
    const [id] = args;
    if (!id) {
      out(`Usage: npm run signer -- ${command} <id>  (npm run signer -- list shows them)`);
      return 2;
    }
    if (!store.decide(id, command === 'approve' ? 'approved' : 'rejected', now.getTime())) {
      const approval = store.approvalById(id);
      const expired =
        approval?.state === 'expired' ||
        (approval?.state === 'pending' && approval.expiresAt <= now.getTime());
      out(
        expired
          ? `Approval ${id} expired at ${new Date(approval.expiresAt).toISOString()}, undecided: the signer refuses the ${approval.kind}. The merchant can ask for it again.`
          : `No pending approval ${id} (npm run signer -- list shows them).`,
      );
      return 1;
    }
    out(
      command === 'approve'
        ? `Approved ${id}: it goes out at the withdrawal job's next pass.`
        : `Rejected ${id}: the signer refuses it at the next pass, and it ends Unsuccessful.`,
    );
    return 0;
  }
  const [appId, methodName, amount] = args;
  const method = methodName ? methodOf(methodName) : undefined;
  const decimals = method ? methodDecimals(method.id) : null;
  if (!appId || !method || decimals === null || !amount || !/^\d+(\.\d+)?$/.test(amount)) {
    out('Usage: npm run signer -- cap <app id> <method id or code> <amount in its units>');
    return 2;
  }
  const raw = parseUnits(amount, decimals);
  store.setOperatorCap(appId, method.id, raw, now.getTime());
  out(
    `The daily cap of app ${appId} for ${method.code} is now ${amountOf(method.id, raw.toString())}.`,
  );
  return 0;
}
