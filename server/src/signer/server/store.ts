import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { SignerConfig } from '../../config';
import { ownerOnly, ownerOnlyDir } from '../../ownerOnly';
import { addressForm, whitelistHash } from '../client/requestMac';

// The signer's own store: a small SQLite file in a directory only the signer's user can read
// (SIGNER_STORE_DIR, default DATA_DIR/signer; on the signer's host in production). The web process
// never opens it, and nothing written to the shared database changes it: what it holds comes from
// MACed registrations over the signer's socket, stamped with the signer's own clock.
// - payouts: each payout address registered per (app, method), the time it takes effect, and
//   whether a later registration superseded it before it did. The first address of an (app,
//   method) the signer has never seen is in effect at once; a later different one after the hold
//   (SIGNER_HOLD_HOURS); going back to the address in effect cancels a pending change.
// - whitelists: per app, the hash of its IP whitelist, whether it was ever non-empty, and how long
//   a change is held. The first non-empty whitelist is not held; any later change is.
// - signed: every transaction the signer signed (the daily caps count them).
// - refusals: every request it refused as untrusted (and the alerts it sent once).
// - plans: each app's plan as registered, and when it ends (a raise or prolonging of its caps
//   takes effect after the hold, a cut at once; past its end the smallest plan's caps apply);
//   operator_caps: an app's cap set by the operator's command, which prevails.
// - approvals: money out beyond the daily cap, pending until the operator approves or rejects it
//   or it expires (SIGNER_APPROVAL_HOURS), and whether the merchant was told of the outcome.
// - refund_sources: per refund's send, the invoice address whose payments it gives back: the
//   refunds signed against one address never total more than the chain shows was paid to it.
// Timestamps are milliseconds since the epoch. One process uses it, one request at a time, so the
// synchronous driver is all it needs.

export const STORE_FILE = 'signer-store.sqlite';
/** The store's directory when SIGNER_STORE_DIR is unset: DATA_DIR/signer. */
const STORE_SUBDIR = 'signer';

/** SIGNER_STORE_DIR, absolute, else DATA_DIR/signer. */
export function signerStoreDir(config: {
  dataDir: string;
  signer: Pick<SignerConfig, 'storeDir'>;
}): string {
  return path.resolve(config.signer.storeDir ?? path.join(config.dataDir, STORE_SUBDIR));
}

/** The store's migrations, in order: PRAGMA user_version counts those applied. */
const MIGRATIONS: readonly string[] = [
  `create table meta (key text primary key, value text not null);
   create table payouts (
     seq integer primary key autoincrement,
     app_id text not null,
     payment_method_id text not null,
     address text not null,
     web_at text not null,
     registered_at integer not null,
     effective_at integer not null,
     superseded_at integer
   );
   create index payouts_key on payouts (app_id, payment_method_id, seq);
   create table whitelists (
     app_id text primary key,
     hash text not null,
     ever_set integer not null,
     web_at text not null,
     changed_at integer not null,
     held_until integer
   );
   create table signed (
     seq integer primary key autoincrement,
     ref_id text not null,
     kind text not null,
     app_id text,
     payment_method_id text,
     chain_id integer not null,
     from_address text not null,
     nonce integer not null,
     destination text not null,
     amount_raw text not null,
     tx_hash text not null,
     signed_at integer not null
   );
   create index signed_ref on signed (ref_id);
   create index signed_app on signed (app_id, payment_method_id, signed_at);
   create table refusals (
     seq integer primary key autoincrement,
     request text not null,
     ref_id text not null,
     app_id text,
     reason text not null,
     created_at integer not null
   );
   create index refusals_ref on refusals (request, ref_id);`,
  `create table plans (
     seq integer primary key autoincrement,
     app_id text not null,
     package_id text not null,
     web_at text not null,
     registered_at integer not null,
     effective_at integer not null,
     superseded_at integer
   );
   create index plans_app on plans (app_id, seq);
   create table operator_caps (
     app_id text not null,
     payment_method_id text not null,
     amount_raw text not null,
     set_at integer not null,
     primary key (app_id, payment_method_id)
   );
   create table approvals (
     id text primary key,
     kind text not null,
     ref_id text not null unique,
     app_id text not null,
     payment_method_id text not null,
     amount_raw text not null,
     destination text not null,
     state text not null,
     created_at integer not null,
     decided_at integer
   );
   create index approvals_state on approvals (state, created_at);`,
  `create table refund_sources (
     ref_id text primary key,
     chain_id integer not null,
     paid_to text not null
   );
   create index refund_sources_paid_to on refund_sources (chain_id, paid_to);`,
  // Plans end; approvals expire, and their decision is told to the merchant once. Approvals held
  // before expire 72 hours after they were held; decisions made before were told then.
  `alter table plans add column ends_at integer;
   alter table approvals add column expires_at integer not null default 0;
   alter table approvals add column notified_at integer;
   update approvals set expires_at = created_at + 259200000;
   update approvals set notified_at = decided_at where decided_at is not null;`,
];

const EMPTY_WHITELIST = whitelistHash(null);

type Sqlite = InstanceType<typeof SqliteDatabase>;

interface PayoutRow {
  seq: number;
  address: string;
  web_at: string;
  effective_at: number;
}

interface WhitelistRow {
  hash: string;
  ever_set: number;
  web_at: string;
  held_until: number | null;
}

/** A payout address and when it takes (or took) effect. */
export interface Payout {
  address: string;
  effectiveAt: number;
}

/** One signature, as the signer records it. */
export interface SignedRecord {
  refId: string;
  kind: string;
  appId: string | null;
  paymentMethodId: string | null;
  chainId: number;
  from: string;
  nonce: number;
  destination: string;
  amountRaw: string;
  txHash: string;
}

/** A request held beyond the daily cap, as the operator's command lists it. */
export interface Approval {
  id: string;
  kind: string;
  refId: string;
  appId: string;
  paymentMethodId: string;
  amountRaw: string;
  destination: string;
  state: 'pending' | 'approved' | 'rejected' | 'expired';
  createdAt: number;
  /** Unanswered by then, it expires: the signer refuses the request. */
  expiresAt: number;
  /** When the merchant and the operator were told of the outcome; null: not yet. */
  notifiedAt: number | null;
}

interface ApprovalRow {
  id: string;
  kind: string;
  ref_id: string;
  app_id: string;
  payment_method_id: string;
  amount_raw: string;
  destination: string;
  state: Approval['state'];
  created_at: number;
  expires_at: number;
  notified_at: number | null;
}

const approvalOf = (row: ApprovalRow): Approval => ({
  id: row.id,
  kind: row.kind,
  refId: row.ref_id,
  appId: row.app_id,
  paymentMethodId: row.payment_method_id,
  amountRaw: row.amount_raw,
  destination: row.destination,
  state: row.state,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  notifiedAt: row.notified_at,
});

export class SignerStore {
  private constructor(private readonly sqlite: Sqlite) {}

  /** Opens (making it, 0700 and 0600) the store in `dir`, its migrations applied. */
  static open(dir: string): SignerStore {
    ownerOnlyDir(dir);
    const file = path.join(dir, STORE_FILE);
    closeSync(openSync(file, 'a', 0o600));
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) ownerOnly(f);
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    const applied = Number(sqlite.pragma('user_version', { simple: true }));
    for (let i = applied; i < MIGRATIONS.length; i += 1) {
      sqlite.transaction(() => {
        sqlite.exec(MIGRATIONS[i] ?? '');
        sqlite.pragma(`user_version = ${i + 1}`);
      })();
    }
    return new SignerStore(sqlite);
  }

  close(): void {
    this.sqlite.close();
  }

  /** Runs `work` as one transaction of the store. */
  transaction<T>(work: () => T): T {
    return this.sqlite.transaction(work)();
  }

  meta(key: string): string | null {
    const row = this.sqlite.prepare('select value from meta where key = ?').get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.sqlite
      .prepare(
        'insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value',
      )
      .run(key, value);
  }

  /**
   * Registers `address` as the (app, method)'s payout address, `webAt` being when the web process
   * made the change: a registration older than the last one taken is stale and changes nothing.
   * Answers when the address is (or will be) in effect.
   */
  registerPayout(
    r: { appId: string; paymentMethodId: string; address: string; webAt: string },
    now: number,
    holdMs: number,
  ): { effectiveAt: number; changed: boolean } {
    return this.transaction(() => {
      const address = addressForm(r.address);
      const latest = this.sqlite
        .prepare(
          `select seq, address, web_at, effective_at from payouts
           where app_id = ? and payment_method_id = ? order by seq desc limit 1`,
        )
        .get(r.appId, r.paymentMethodId) as PayoutRow | undefined;
      if (latest && (r.webAt < latest.web_at || latest.address === address)) {
        return { effectiveAt: latest.effective_at, changed: false };
      }
      const current = this.payout(r.appId, r.paymentMethodId, now).inEffect;
      // Never seen: in effect at once. Back to the address in effect: the change is called off.
      const effectiveAt = !latest || current?.address === address ? now : now + holdMs;
      this.sqlite
        .prepare(
          `update payouts set superseded_at = ?
           where app_id = ? and payment_method_id = ? and effective_at > ? and superseded_at is null`,
        )
        .run(now, r.appId, r.paymentMethodId, now);
      this.sqlite
        .prepare(
          `insert into payouts (app_id, payment_method_id, address, web_at, registered_at, effective_at)
           values (?, ?, ?, ?, ?, ?)`,
        )
        .run(r.appId, r.paymentMethodId, address, r.webAt, now, effectiveAt);
      return { effectiveAt, changed: latest !== undefined };
    });
  }

  /** The payout address in effect at `now`, and a registered change still held, if any. */
  payout(
    appId: string,
    paymentMethodId: string,
    now: number,
  ): { inEffect: Payout | null; pending: Payout | null } {
    const rows = this.sqlite
      .prepare(
        `select address, effective_at from payouts
         where app_id = ? and payment_method_id = ? and superseded_at is null
         order by seq desc`,
      )
      .all(appId, paymentMethodId) as { address: string; effective_at: number }[];
    const of = (row: { address: string; effective_at: number } | undefined) =>
      row ? { address: row.address, effectiveAt: row.effective_at } : null;
    const pending = rows[0] && rows[0].effective_at > now ? rows[0] : undefined;
    return { inEffect: of(rows.find((row) => row.effective_at <= now)), pending: of(pending) };
  }

  /**
   * Registers the app's whitelist (its hash); a stale registration changes nothing. Answers
   * until when withdrawals are held for it (null: not held).
   */
  registerWhitelist(
    r: { appId: string; hash: string; webAt: string },
    now: number,
    holdMs: number,
  ): { heldUntil: number | null; changed: boolean } {
    return this.transaction(() => {
      const row = this.sqlite
        .prepare('select hash, ever_set, web_at, held_until from whitelists where app_id = ?')
        .get(r.appId) as WhitelistRow | undefined;
      const set = r.hash !== EMPTY_WHITELIST ? 1 : 0;
      if (!row) {
        this.sqlite
          .prepare(
            `insert into whitelists (app_id, hash, ever_set, web_at, changed_at, held_until)
             values (?, ?, ?, ?, ?, null)`,
          )
          .run(r.appId, r.hash, set, r.webAt, now);
        return { heldUntil: null, changed: false };
      }
      if (r.webAt < row.web_at || row.hash === r.hash) {
        return { heldUntil: row.held_until, changed: false };
      }
      // The first whitelist ever set is not held; every later change is (emptying it too).
      const heldUntil = row.ever_set === 1 && holdMs > 0 ? now + holdMs : row.held_until;
      this.sqlite
        .prepare(
          `update whitelists set hash = ?, ever_set = ?, web_at = ?, changed_at = ?, held_until = ?
           where app_id = ?`,
        )
        .run(r.hash, Math.max(row.ever_set, set), r.webAt, now, heldUntil, r.appId);
      return { heldUntil, changed: true };
    });
  }

  /**
   * What the signer knows of an app's withdrawals: whether its whitelist is registered and empty,
   * and until when they are held (its whitelist's hold, or a payout address change of any
   * method still held), null when not.
   */
  withdrawalHold(
    appId: string,
    now: number,
  ): { registered: boolean; empty: boolean; until: number | null } {
    const row = this.sqlite
      .prepare('select hash, held_until from whitelists where app_id = ?')
      .get(appId) as Pick<WhitelistRow, 'hash' | 'held_until'> | undefined;
    const payout = this.sqlite
      .prepare(
        `select max(effective_at) as until from payouts
         where app_id = ? and superseded_at is null and effective_at > ?`,
      )
      .get(appId, now) as { until: number | null };
    const ends = [row?.held_until ?? null, payout.until].filter(
      (until): until is number => until !== null && until > now,
    );
    return {
      registered: row !== undefined,
      empty: row?.hash === EMPTY_WHITELIST,
      until: ends.length > 0 ? Math.max(...ends) : null,
    };
  }

  /** The upgrade's import (storeImport.ts): an address as the shared database had it. */
  importPayout(
    r: { appId: string; paymentMethodId: string; address: string },
    now: number,
    effectiveAt: number,
  ): void {
    this.sqlite
      .prepare(
        `insert into payouts (app_id, payment_method_id, address, web_at, registered_at, effective_at)
         values (?, ?, ?, '', ?, ?)`,
      )
      .run(r.appId, r.paymentMethodId, addressForm(r.address), now, effectiveAt);
  }

  /** The upgrade's import: an app's whitelist as the shared database had it, and its hold. */
  importWhitelist(r: { appId: string; hash: string }, now: number, heldUntil: number | null): void {
    this.sqlite
      .prepare(
        `insert into whitelists (app_id, hash, ever_set, web_at, changed_at, held_until)
         values (?, ?, ?, '', ?, ?) on conflict (app_id) do nothing`,
      )
      .run(r.appId, r.hash, r.hash !== EMPTY_WHITELIST ? 1 : 0, now, heldUntil);
  }

  recordSigned(record: SignedRecord, now: number): void {
    this.sqlite
      .prepare(
        `insert into signed (ref_id, kind, app_id, payment_method_id, chain_id, from_address, nonce,
           destination, amount_raw, tx_hash, signed_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.refId,
        record.kind,
        record.appId,
        record.paymentMethodId,
        record.chainId,
        addressForm(record.from),
        record.nonce,
        addressForm(record.destination),
        record.amountRaw,
        record.txHash,
        now,
      );
  }

  /**
   * Money out (withdrawals, refunds) signed for (app, method) since `since`, but for `exceptRef`:
   * each transaction once (a replacement at the same nonce is the same money).
   */
  moneyOutSince(appId: string, paymentMethodId: string, since: number, exceptRef: string): bigint {
    const rows = this.sqlite
      .prepare(
        `select max(amount_raw) as amount_raw from signed
         where app_id = ? and payment_method_id = ? and kind in ('withdrawal', 'refund')
           and signed_at > ? and ref_id != ?
         group by ref_id, chain_id, from_address, nonce`,
      )
      .all(appId, paymentMethodId, since, exceptRef) as { amount_raw: string }[];
    return rows.reduce((sum, row) => sum + BigInt(row.amount_raw), 0n);
  }

  /**
   * Registers the app's plan and its end (null: none); a stale registration changes nothing. One
   * that allows more than the plan in effect at some moment (a plan of higher caps by `rank`, or
   * the same plan lasting longer) takes effect after the hold, any other at once.
   */
  registerPlan(
    r: { appId: string; packageId: string; endsAt: number | null; webAt: string },
    now: number,
    holdMs: number,
    rank: (packageId: string) => bigint,
  ): { effectiveAt: number; changed: boolean } {
    return this.transaction(() => {
      const latest = this.sqlite
        .prepare(
          'select package_id, ends_at, web_at, effective_at from plans where app_id = ? order by seq desc limit 1',
        )
        .get(r.appId) as
        | { package_id: string; ends_at: number | null; web_at: string; effective_at: number }
        | undefined;
      const same = latest?.package_id === r.packageId && latest.ends_at === r.endsAt;
      if (latest && (r.webAt < latest.web_at || same)) {
        return { effectiveAt: latest.effective_at, changed: false };
      }
      const current = this.planRow(r.appId, now);
      const currentRank = rank(current?.packageId ?? '');
      const longer =
        current !== null &&
        current.endsAt !== null &&
        (r.endsAt === null || r.endsAt > current.endsAt);
      const raise =
        rank(r.packageId) > currentRank || (rank(r.packageId) === currentRank && longer);
      const effectiveAt = raise && holdMs > 0 ? now + holdMs : now;
      this.sqlite
        .prepare(
          `update plans set superseded_at = ?
           where app_id = ? and effective_at > ? and superseded_at is null`,
        )
        .run(now, r.appId, now);
      this.sqlite
        .prepare(
          `insert into plans (app_id, package_id, ends_at, web_at, registered_at, effective_at)
           values (?, ?, ?, ?, ?, ?)`,
        )
        .run(r.appId, r.packageId, r.endsAt, r.webAt, now, effectiveAt);
      return { effectiveAt, changed: latest !== undefined };
    });
  }

  /** The app's plan in effect at `now`; null when none was registered or it has ended. */
  plan(appId: string, now: number): string | null {
    return this.planRow(appId, now)?.packageId ?? null;
  }

  private planRow(appId: string, now: number): { packageId: string; endsAt: number | null } | null {
    const row = this.sqlite
      .prepare(
        `select package_id, ends_at from plans
         where app_id = ? and superseded_at is null and effective_at <= ?
         order by seq desc limit 1`,
      )
      .get(appId, now) as { package_id: string; ends_at: number | null } | undefined;
    if (!row || (row.ends_at !== null && row.ends_at <= now)) return null;
    return { packageId: row.package_id, endsAt: row.ends_at };
  }

  /** The operator's cap of (app, method), in base units; null when none is set. */
  operatorCap(appId: string, paymentMethodId: string): bigint | null {
    const row = this.sqlite
      .prepare('select amount_raw from operator_caps where app_id = ? and payment_method_id = ?')
      .get(appId, paymentMethodId) as { amount_raw: string } | undefined;
    return row ? BigInt(row.amount_raw) : null;
  }

  setOperatorCap(appId: string, paymentMethodId: string, amountRaw: bigint, now: number): void {
    this.sqlite
      .prepare(
        `insert into operator_caps (app_id, payment_method_id, amount_raw, set_at) values (?, ?, ?, ?)
         on conflict (app_id, payment_method_id)
         do update set amount_raw = excluded.amount_raw, set_at = excluded.set_at`,
      )
      .run(appId, paymentMethodId, amountRaw.toString(), now);
  }

  /** The approval of a request, if it was ever held. */
  approvalOf(refId: string): Approval | null {
    const row = this.sqlite.prepare('select * from approvals where ref_id = ?').get(refId) as
      ApprovalRow | undefined;
    return row ? approvalOf(row) : null;
  }

  /** An approval by its id. */
  approvalById(id: string): Approval | null {
    const row = this.sqlite.prepare('select * from approvals where id = ?').get(id) as
      ApprovalRow | undefined;
    return row ? approvalOf(row) : null;
  }

  /**
   * Holds a request for the operator until `expiresAt` (once per request); answers its approval
   * and whether it is new.
   */
  requestApproval(
    r: Omit<Approval, 'state' | 'createdAt' | 'expiresAt' | 'notifiedAt'>,
    now: number,
    expiresAt: number,
  ): { approval: Approval; created: boolean } {
    const known = this.approvalOf(r.refId);
    if (known) return { approval: known, created: false };
    this.sqlite
      .prepare(
        `insert into approvals (id, kind, ref_id, app_id, payment_method_id, amount_raw, destination,
           state, created_at, expires_at)
         values (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      )
      .run(
        r.id,
        r.kind,
        r.refId,
        r.appId,
        r.paymentMethodId,
        r.amountRaw,
        r.destination,
        now,
        expiresAt,
      );
    return {
      approval: { ...r, state: 'pending', createdAt: now, expiresAt, notifiedAt: null },
      created: true,
    };
  }

  /** The approvals still waiting for a decision at `now`, oldest first. */
  pendingApprovals(now: number): Approval[] {
    const rows = this.sqlite
      .prepare(
        "select * from approvals where state = 'pending' and expires_at > ? order by created_at",
      )
      .all(now) as ApprovalRow[];
    return rows.map(approvalOf);
  }

  /**
   * The operator's decision on an approval still pending at `now`; false when there is no such
   * one (decided, expired or unknown).
   */
  decide(id: string, state: 'approved' | 'rejected', now: number): boolean {
    const result = this.sqlite
      .prepare(
        `update approvals set state = ?, decided_at = ?
         where id = ? and state = 'pending' and expires_at > ?`,
      )
      .run(state, now, id, now);
    return Number(result.changes) > 0;
  }

  /** A pending approval past its time expires; answers whether this call expired it. */
  expireApproval(id: string, now: number): boolean {
    const result = this.sqlite
      .prepare(
        `update approvals set state = 'expired', decided_at = ?
         where id = ? and state = 'pending' and expires_at <= ?`,
      )
      .run(now, id, now);
    return Number(result.changes) > 0;
  }

  /** Notes that the outcome was told; answers false when it had been already. */
  markNotified(id: string, now: number): boolean {
    const result = this.sqlite
      .prepare('update approvals set notified_at = ? where id = ? and notified_at is null')
      .run(now, id);
    return Number(result.changes) > 0;
  }

  /** A signature that was never stored nor broadcast (the row moved on): not on record. */
  forgetSigned(txHash: string): void {
    this.sqlite.prepare('delete from signed where tx_hash = ?').run(txHash);
  }

  /** Notes that send `refId` refunds payments to `paidTo` (before it is first signed). */
  recordRefundSource(refId: string, chainId: number, paidTo: string): void {
    this.sqlite
      .prepare(
        'insert into refund_sources (ref_id, chain_id, paid_to) values (?, ?, ?) on conflict (ref_id) do nothing',
      )
      .run(refId, chainId, addressForm(paidTo));
  }

  /**
   * What the signer signed in refunds of payments to `paidTo` on `chainId`, but for `exceptRef`:
   * each transaction once (a replacement at the same nonce is the same money).
   */
  refundedFrom(chainId: number, paidTo: string, exceptRef: string): bigint {
    const rows = this.sqlite
      .prepare(
        `select max(s.amount_raw) as amount_raw from signed s
           join refund_sources r on r.ref_id = s.ref_id
         where r.chain_id = ? and r.paid_to = ? and s.ref_id != ?
         group by s.ref_id, s.chain_id, s.from_address, s.nonce`,
      )
      .all(chainId, addressForm(paidTo), exceptRef) as { amount_raw: string }[];
    return rows.reduce((sum, row) => sum + BigInt(row.amount_raw), 0n);
  }

  /** Every transaction hash the signer signed for `refId` with `kind`, oldest first. */
  signedHashes(refId: string, kind: string): string[] {
    const rows = this.sqlite
      .prepare('select tx_hash from signed where ref_id = ? and kind = ? order by seq')
      .all(refId, kind) as { tx_hash: string }[];
    return rows.map((row) => row.tx_hash);
  }

  /** The app and method an earlier signature for `refId` was made for. */
  ownerOf(refId: string): { appId: string | null; paymentMethodId: string | null } {
    const row = this.sqlite
      .prepare('select app_id, payment_method_id from signed where ref_id = ? order by seq limit 1')
      .get(refId) as { app_id: string | null; payment_method_id: string | null } | undefined;
    return { appId: row?.app_id ?? null, paymentMethodId: row?.payment_method_id ?? null };
  }

  /**
   * Records a refusal, once per request, row and reason; answers whether it was recorded before
   * (a request asked again and again).
   */
  recordRefusal(
    r: { request: string; refId: string; appId: string | null; reason: string },
    now: number,
  ): { repeated: boolean } {
    const before = this.sqlite
      .prepare('select 1 from refusals where request = ? and ref_id = ? and reason = ? limit 1')
      .get(r.request, r.refId, r.reason);
    if (before !== undefined) return { repeated: true };
    this.sqlite
      .prepare(
        'insert into refusals (request, ref_id, app_id, reason, created_at) values (?, ?, ?, ?, ?)',
      )
      .run(r.request, r.refId, r.appId, r.reason, now);
    return { repeated: false };
  }
}
