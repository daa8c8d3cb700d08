import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { whitelistHash } from '../client/requestMac';
import { STORE_FILE, SignerStore } from './store';

// The signer's own store decides where sweeps may go and when a change takes effect, by the
// signer's clock alone.

const HOUR = 3_600_000;
const HOLD = 24 * HOUR;
const A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const B = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const C = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';

let dir: string;
let store: SignerStore;
beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(tmpdir(), 'signer-store-')), 'signer');
  store = SignerStore.open(dir);
});
afterEach(() => {
  store.close();
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

let web = 0;
/** A registration as the web process makes them, each later than the last. */
const payout = (address: string, now: number, webAt = new Date(1_000 + (web += 1)).toISOString()) =>
  store.registerPayout(
    { appId: 'app_1', paymentMethodId: 'pm_usdt_bsc', address, webAt },
    now,
    HOLD,
  );
const inEffect = (now: number) => store.payout('app_1', 'pm_usdt_bsc', now);

describe("the signer's store", () => {
  it('lives in a directory only its user can open, in an owner-only file, and opens again as it was', () => {
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, STORE_FILE)).mode & 0o777).toBe(0o600);
    payout(A, 0);
    store.close();
    store = SignerStore.open(dir);
    expect(inEffect(0).inEffect?.address).toBe(A.toLowerCase());
  });

  it('a first payout address is in effect at once; a change only after the hold, by its own clock', () => {
    expect(payout(A, 0)).toEqual({ effectiveAt: 0, changed: false });
    expect(payout(B, HOUR)).toEqual({ effectiveAt: HOUR + HOLD, changed: true });
    expect(inEffect(2 * HOUR)).toEqual({
      inEffect: { address: A.toLowerCase(), effectiveAt: 0 },
      pending: { address: B.toLowerCase(), effectiveAt: HOUR + HOLD },
    });
    expect(inEffect(HOUR + HOLD)).toEqual({
      inEffect: { address: B.toLowerCase(), effectiveAt: HOUR + HOLD },
      pending: null,
    });
  });

  it('the same registration again changes nothing; an older one is ignored', () => {
    payout(A, 0);
    const at = new Date(5_000).toISOString();
    expect(payout(B, HOUR, at)).toEqual({ effectiveAt: HOUR + HOLD, changed: true });
    expect(payout(B, 2 * HOUR, at)).toEqual({ effectiveAt: HOUR + HOLD, changed: false });
    expect(payout(C, 3 * HOUR, new Date(4_000).toISOString())).toEqual({
      effectiveAt: HOUR + HOLD,
      changed: false,
    });
    expect(inEffect(HOUR + HOLD).inEffect?.address).toBe(B.toLowerCase());
  });

  it('going back to the address in effect calls the change off; a later change is held anew', () => {
    payout(A, 0);
    payout(B, HOUR);
    expect(payout(A, 2 * HOUR).effectiveAt).toBe(2 * HOUR);
    expect(inEffect(HOUR + HOLD + 1)).toEqual({
      inEffect: { address: A.toLowerCase(), effectiveAt: 2 * HOUR },
      pending: null,
    });
    // A change superseded by another before it took effect never takes effect.
    payout(B, 3 * HOUR);
    payout(C, 4 * HOUR);
    expect(inEffect(3 * HOUR + HOLD + 1).inEffect?.address).toBe(A.toLowerCase());
    expect(inEffect(4 * HOUR + HOLD).inEffect?.address).toBe(C.toLowerCase());
  });

  it('the first whitelist ever set is not held; every later change is, emptying it and setting it again too', () => {
    const wl = (list: string | null, now: number) =>
      store.registerWhitelist(
        { appId: 'app_1', hash: whitelistHash(list), webAt: new Date(now + 1).toISOString() },
        now,
        HOLD,
      );
    expect(store.withdrawalHold('app_1', 0)).toEqual({
      registered: false,
      empty: false,
      until: null,
    });
    wl(null, 0);
    expect(store.withdrawalHold('app_1', 0)).toEqual({
      registered: true,
      empty: true,
      until: null,
    });
    expect(wl('203.0.113.7', HOUR)).toEqual({ heldUntil: null, changed: true });
    expect(store.withdrawalHold('app_1', HOUR)).toEqual({
      registered: true,
      empty: false,
      until: null,
    });
    expect(wl(null, 2 * HOUR).heldUntil).toBe(2 * HOUR + HOLD);
    expect(wl('198.51.100.1', 3 * HOUR).heldUntil).toBe(3 * HOUR + HOLD);
    expect(store.withdrawalHold('app_1', 4 * HOUR)).toEqual({
      registered: true,
      empty: false,
      until: 3 * HOUR + HOLD,
    });
    expect(store.withdrawalHold('app_1', 3 * HOUR + HOLD).until).toBeNull();
  });

  it("holds an app's withdrawals while a payout address change of any method is held", () => {
    store.registerWhitelist(
      { appId: 'app_1', hash: whitelistHash('203.0.113.7'), webAt: 'x' },
      0,
      HOLD,
    );
    payout(A, 0);
    payout(B, HOUR);
    expect(store.withdrawalHold('app_1', 2 * HOUR).until).toBe(HOUR + HOLD);
    expect(store.withdrawalHold('app_1', HOUR + HOLD).until).toBeNull();
  });

  it("a plan ends by the signer's clock; a higher or longer one waits out the hold, a cut or shorter one is at once", () => {
    const rank = (id: string) => ({ pkg_business: 5n, pkg_enterprise: 25n })[id] ?? 1n;
    const plan = (packageId: string, endsAt: number | null, now: number) =>
      store.registerPlan(
        { appId: 'app_1', packageId, endsAt, webAt: new Date(1_000 + (web += 1)).toISOString() },
        now,
        HOLD,
        rank,
      );
    const t0 = 10 * HOLD;
    // A higher plan than none: held.
    expect(plan('pkg_business', t0 + 30 * HOLD, t0)).toEqual({
      effectiveAt: t0 + HOLD,
      changed: false,
    });
    expect(store.plan('app_1', t0 + HOLD - 1)).toBeNull();
    expect(store.plan('app_1', t0 + HOLD)).toBe('pkg_business');
    // The same plan registered again, unchanged.
    expect(plan('pkg_business', t0 + 30 * HOLD, t0 + 2 * HOLD)).toEqual({
      effectiveAt: t0 + HOLD,
      changed: false,
    });
    // The same plan for longer (a renewal): held, the plan in effect runs on meanwhile.
    const renewed = t0 + 29 * HOLD + HOLD / 2;
    expect(plan('pkg_business', t0 + 60 * HOLD, renewed)).toEqual({
      effectiveAt: renewed + HOLD,
      changed: true,
    });
    expect(store.plan('app_1', renewed)).toBe('pkg_business');
    // Its old end passes inside the hold: the smallest caps until the renewal takes effect.
    expect(store.plan('app_1', t0 + 30 * HOLD)).toBeNull();
    expect(store.plan('app_1', renewed + HOLD)).toBe('pkg_business');
    // At its end, nothing more is registered: no plan.
    expect(store.plan('app_1', t0 + 60 * HOLD - 1)).toBe('pkg_business');
    expect(store.plan('app_1', t0 + 60 * HOLD)).toBeNull();
    // A cut (a lower plan, or the same one ending sooner) is at once.
    const later = t0 + 40 * HOLD;
    expect(plan('pkg_business', t0 + 45 * HOLD, later).effectiveAt).toBe(later);
    expect(store.plan('app_1', t0 + 45 * HOLD)).toBeNull();
    expect(plan('pkg_starter', t0 + 90 * HOLD, later + 1).effectiveAt).toBe(later + 1);
    expect(store.plan('app_1', later + 1)).toBe('pkg_starter');
  });

  it('an approval expires undecided at its time; decided or expired, it is told once', () => {
    const held = (refId: string, now: number) =>
      store.requestApproval(
        {
          id: `apr_${refId}`,
          kind: 'withdrawal',
          refId,
          appId: 'app_1',
          paymentMethodId: 'pm_usdt_bsc',
          amountRaw: '5',
          destination: A,
        },
        now,
        now + 72 * HOUR,
      ).approval;
    held('wd_1', 0);
    held('wd_2', HOUR);
    expect(store.pendingApprovals(72 * HOUR - 1).map((a) => a.id)).toEqual([
      'apr_wd_1',
      'apr_wd_2',
    ]);
    expect(store.pendingApprovals(72 * HOUR).map((a) => a.id)).toEqual(['apr_wd_2']);
    // Past its time the operator can no longer decide it.
    expect(store.decide('apr_wd_1', 'approved', 72 * HOUR)).toBe(false);
    expect(store.decide('apr_wd_2', 'approved', 72 * HOUR)).toBe(true);
    expect(store.expireApproval('apr_wd_2', 80 * HOUR)).toBe(false);
    expect(store.expireApproval('apr_wd_1', 72 * HOUR)).toBe(true);
    expect(store.approvalOf('wd_1')).toMatchObject({ state: 'expired', notifiedAt: null });
    expect(store.markNotified('apr_wd_1', 73 * HOUR)).toBe(true);
    expect(store.markNotified('apr_wd_1', 74 * HOUR)).toBe(false);
    expect(store.approvalOf('wd_1')?.notifiedAt).toBe(73 * HOUR);
  });
});
