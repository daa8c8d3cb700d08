import { parseUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { eventTypesOf } from '../../../test/appRows';
import { refundDeps, settledRefundLink } from '../../../test/refunds';
import { testAppPerBlock } from '../../../test/withTestApp';
import type { Db } from '../../db/connection';
import { refundRequest } from '../../signer/client/requestMac';
import { NotFoundError } from '../errors';
import { WITHDRAWAL_MSG } from '../payments/withdrawals';
import { ClaimAddressError, ClaimConflictError, claimOf, claimRefund, CLAIM_MSG } from './claims';
import { advanceRefunds } from './funding';
import { cancelRefund, CLAIM_DAYS, REFUND_MSG } from './refunds';

// The shopper's claim of a refund link, on a refund made the real way (an invoice paid on the
// local chain and settled, then refunded with a claim link): the claim sets the address once,
// MACs the refund and funds it (queued when the wallet covers it, awaiting funds otherwise) with
// its refund.claimed event; a second claim, an expired or cancelled link and every bad address
// are refused, each with its own reason, and change nothing.

jest.setTimeout(60_000);

const DAY = 86_400_000;
const SHOPPER = privateKeyToAddress(`0x${'45'.repeat(32)}`);
const OTHER = privateKeyToAddress(`0x${'46'.repeat(32)}`);

describe('claiming a refund link', () => {
  const t = testAppPerBlock();
  let serial = 0;
  const deps = () => refundDeps(t);
  const sign = () => deps().sign;
  const readerFor = (db: Db) => deps().readerFor(db);

  const refundLink = (options: { funded?: boolean } = {}) => {
    serial += 1;
    return settledRefundLink(t, `claim_${serial}`, options);
  };

  const claim = (token: string, address: string, now = t.clock()) =>
    claimRefund(t.db, {
      token,
      address,
      now,
      sign: sign(),
      tokenOnChain: deps().tokenOnChain,
      readerFor,
    });

  const row = (id: string) =>
    t.db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sendsOf = (id: string) =>
    t.db
      .selectFrom('send_transactions')
      .select(['status', 'to_address', 'amount_raw'])
      .where('refund_id', '=', id)
      .execute();

  /** What a refused claim must have left as it was. */
  async function untouched(id: string) {
    expect(await row(id)).toMatchObject({
      status: 'pending_claim',
      address: null,
      address_source: null,
      claimed_at: null,
      request_mac: null,
      send_id: null,
    });
    expect(await eventTypesOf(t, id)).toEqual(['refund.created']);
    expect(await sendsOf(id)).toEqual([]);
  }

  it('shows an open link: the app, the exact amount, the token, the network, the reason', async () => {
    const { token } = await refundLink();
    expect(await claimOf(t.db, token, t.clock())).toEqual({
      appName: expect.stringMatching(/^app_claim_/),
      appLogo: null,
      amount: '53.9',
      asset: 'USDT',
      method: 'USDT-BEP20',
      network: 'BNB Smart Chain',
      chainId: 56,
      expiresAt: new Date(t.clock().getTime() + CLAIM_DAYS * DAY).toISOString(),
      reason: 'The mug arrived broken',
      state: { kind: 'open' },
      // A live app's link: its page carries no test mode banner.
      livemode: true,
    });
  });

  it('claims to the shopper’s address: MACed, queued from a funded wallet, refund.claimed', async () => {
    const { id, token } = await refundLink();
    const claimed = await claim(token, SHOPPER.toLowerCase());
    expect(claimed).toMatchObject({
      id,
      status: 'queued',
      address: SHOPPER,
      address_source: 'shopper',
      claimed_at: t.clock().toISOString(),
      claim_url: null,
    });
    const after = await row(id);
    expect(after).toMatchObject({ status: 'queued', address: SHOPPER, address_source: 'shopper' });
    expect(after.request_mac).toBe(sign()(refundRequest({ ...after, address: SHOPPER })));
    expect(await sendsOf(id)).toEqual([
      { status: 2, to_address: SHOPPER, amount_raw: parseUnits('53.9', 18).toString() },
    ]);
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.claimed']);
    expect((await claimOf(t.db, token, t.clock()))?.state).toEqual({
      kind: 'claimed',
      address: SHOPPER,
      status: 'queued',
      txHash: null,
    });
  });

  it('claims from an empty wallet: awaiting funds, saying what is missing', async () => {
    const { id, token } = await refundLink({ funded: false });
    expect(await claim(token, SHOPPER)).toMatchObject({
      status: 'awaiting_funds',
      address: SHOPPER,
      waiting_message: expect.any(String),
    });
    expect(await sendsOf(id)).toEqual([]);
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.claimed']);
  });

  it('refuses a second claim: the address stays the first one', async () => {
    const { id, token } = await refundLink();
    await claim(token, SHOPPER);
    const again = claim(token, OTHER);
    await expect(again).rejects.toBeInstanceOf(ClaimConflictError);
    await expect(claim(token, OTHER)).rejects.toMatchObject({
      reason: 'claimed',
      message: CLAIM_MSG.claimed,
    });
    expect(await row(id)).toMatchObject({ address: SHOPPER, status: 'queued' });
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.claimed']);
    expect(await sendsOf(id)).toHaveLength(1);
  });

  it('takes one of two claims made at once', async () => {
    const { id, token } = await refundLink();
    const results = await Promise.allSettled([claim(token, SHOPPER), claim(token, OTHER)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ reason: 'claimed' }) },
    ]);
    const winner = won[0]?.status === 'fulfilled' ? won[0].value.address : null;
    expect((await row(id)).address).toBe(winner);
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.claimed']);
    expect(await sendsOf(id)).toHaveLength(1);
  });

  it('refuses an expired link, before and after the refunds job marks it expired', async () => {
    const { id, token } = await refundLink();
    const later = new Date(t.clock().getTime() + CLAIM_DAYS * DAY + 1000);
    await expect(claim(token, SHOPPER, later)).rejects.toMatchObject({
      reason: 'expired',
      message: CLAIM_MSG.expired,
    });
    await untouched(id);
    expect((await claimOf(t.db, token, later))?.state).toEqual({ kind: 'expired' });

    await advanceRefunds(t.db, readerFor, later);
    expect((await row(id)).status).toBe('expired');
    await expect(claim(token, SHOPPER, later)).rejects.toMatchObject({ reason: 'expired' });
    // Even a clock set back cannot claim what the job expired.
    await expect(claim(token, SHOPPER)).rejects.toMatchObject({ reason: 'expired' });
    expect((await row(id)).address).toBeNull();
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.expired']);
  });

  it('refuses a cancelled link', async () => {
    const { appId, id, token } = await refundLink();
    await cancelRefund(t.db, appId, id, t.clock());
    await expect(claim(token, SHOPPER)).rejects.toMatchObject({
      reason: 'cancelled',
      message: CLAIM_MSG.cancelled,
    });
    expect(await row(id)).toMatchObject({ status: 'cancelled', address: null });
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.cancelled']);
    expect((await claimOf(t.db, token, t.clock()))?.state).toEqual({ kind: 'cancelled' });
  });

  it('refuses a bad address, one of another network, a lost one and the merchant’s own, changing nothing', async () => {
    const { id, token, gas, paidTo } = await refundLink();
    const refused = async (address: string, problem: string, message: string) => {
      const error: unknown = await claim(token, address).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClaimAddressError);
      expect(error).toMatchObject({ problem, errors: { address: [message] } });
    };
    const format = WITHDRAWAL_MSG.address('BNB Smart Chain');
    await refused('', 'format', format);
    await refused('not an address', 'format', format);
    // A Tron address: another network's.
    await refused('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', 'format', format);
    // A mixed-case address whose checksum does not hold: a typo.
    await refused(
      SHOPPER.replace(/[a-f]/, (c) => c.toUpperCase()),
      'format',
      format,
    );
    await refused(
      '0x0000000000000000000000000000000000000000',
      'lost',
      WITHDRAWAL_MSG.zeroAddress.replace('to_address', 'address'),
    );
    await refused(
      deps().usdt,
      'lost',
      WITHDRAWAL_MSG.tokenContract('USDT-BEP20').replace('to_address', 'address'),
    );
    await refused(paidTo, 'merchant', REFUND_MSG.invoiceAddress);
    await refused(gas, 'merchant', WITHDRAWAL_MSG.ownWallet.replace('to_address', 'address'));
    await untouched(id);
    expect((await claimOf(t.db, token, t.clock()))?.state).toEqual({ kind: 'open' });
  });

  it('knows no other token', async () => {
    await expect(claim('A'.repeat(32), SHOPPER)).rejects.toBeInstanceOf(NotFoundError);
    expect(await claimOf(t.db, 'A'.repeat(32), t.clock())).toBeNull();
  });
});
