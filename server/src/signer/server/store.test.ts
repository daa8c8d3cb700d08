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
});
