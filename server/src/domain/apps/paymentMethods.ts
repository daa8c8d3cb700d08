import type { Db } from '../../db/connection';
import type { NetworkType } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import {
  ADDRESS_MSG,
  checkPayoutAddress,
  lostDestination,
  type AddressCheck,
} from '../chain/addresses';
import { ConflictError, fieldInvalid, InvalidError, NotFoundError } from '../errors';
import { ChainNotServedError, type GasBalanceReader } from '../chain/balances';
import { newId } from '../ids';
import type { RequestSigner } from '../../signer/client/requestMac';
import { ownedApp, holdEnd } from './apps';
import { queuePayoutRegistration } from './signerRegistration';
import { codedMessages } from '../messageCodes';

const METHOD_MSG = codedMessages('paymentMethod', {
  inUse: 'This payment method is already in use in this app.',
} as const);

type Schemas = components['schemas'];

// Payment methods of an app.

/**
 * A payout address as entered, checked for its network and refused where sweeps would lose the
 * money: the zero address, or the method's own token contract.
 */
function checkedPayout(
  method: { network_type: NetworkType; code: string | null; token_contract_address: string | null },
  raw: string | undefined,
): AddressCheck {
  const address = checkPayoutAddress(method.network_type, raw);
  if (!address.ok) return address;
  const lost = lostDestination(address.address, [method.token_contract_address]);
  if (lost === 'zero_address') return { ok: false, message: ADDRESS_MSG.zeroPayout };
  if (lost === 'token_contract') {
    return { ok: false, message: ADDRESS_MSG.tokenContractPayout(method.code ?? 'the token') };
  }
  return address;
}

/** EVM addresses compare case-insensitively (the case is only a checksum); Tron ones exactly. */
function sameAddress(a: string, b: string): boolean {
  return a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * Puts an active payment method in use in the app, paying out to `collect_address`, registered
 * with the signer (its first address for the method is in effect at once).
 */
export async function usePaymentMethod(
  db: Db,
  userId: string,
  input: Schemas['UsePaymentMethodRequest'],
  nowIso: string,
  sign: RequestSigner,
): Promise<void> {
  const app = await ownedApp(db, userId, input.user_app_id);
  const method = await db
    .selectFrom('payment_methods')
    .select(['id', 'network_type', 'code', 'token_contract_address'])
    .where('id', '=', input.payment_method_id)
    .where('is_active', '=', 1)
    // A test app takes test networks' methods only, a live app live ones.
    .where('livemode', '=', app.livemode)
    .executeTakeFirst();
  if (!method) throw new NotFoundError();
  const address = checkedPayout(method, input.collect_address);
  if (!address.ok) throw fieldInvalid('collect_address', address.message);
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('app_payment_methods')
      .values({
        id: newId('upm'),
        app_id: app.id,
        payment_method_id: method.id,
        collect_address: address.address,
        // The background job (domain/payments/gasProvisioner.ts) creates the operational wallet.
        gas_address: null,
        gas_index: null,
        deposit_status: 1,
        withdraw_status: 1,
        created_at: nowIso,
      })
      .onConflict((oc) => oc.columns(['app_id', 'payment_method_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw new ConflictError(METHOD_MSG.inUse);
    }
    await queuePayoutRegistration(trx, sign, {
      appId: app.id,
      paymentMethodId: method.id,
      address: address.address,
      at: new Date(nowIso),
    });
  });
}

/**
 * Changes a method in use: its payout address, or its deposit or withdraw switch. A changed payout
 * address starts a hold (see holdEnd) and is registered with the signer; answers its end, or null.
 */
export async function updatePaymentMethod(
  db: Db,
  userId: string,
  input: Schemas['UpdatePaymentMethodRequest'],
  nowIso: string,
  holdHours: number,
  sign: RequestSigner,
): Promise<{ payoutHeldUntil: string | null }> {
  const app = await ownedApp(db, userId, input.user_app_id);
  const used = await db
    .selectFrom('app_payment_methods')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
    .select([
      'app_payment_methods.id',
      'app_payment_methods.payment_method_id',
      'app_payment_methods.collect_address',
      'payment_methods.network_type',
      'payment_methods.code',
      'payment_methods.token_contract_address',
    ])
    .where('app_payment_methods.id', '=', input.id)
    .where('app_payment_methods.app_id', '=', app.id)
    .executeTakeFirst();
  if (!used) throw new NotFoundError();
  if (input.type === 'address') {
    const address = checkedPayout(used, input.collect_address);
    if (!address.ok) throw fieldInvalid('collect_address', address.message);
    // The address set when the method was put in use is the first one: any change is held.
    const changed = address.address !== used.collect_address;
    const heldUntil = changed ? holdEnd(nowIso, holdHours) : null;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('app_payment_methods')
        .set({
          collect_address: address.address,
          ...(heldUntil ? { payout_hold_until: heldUntil } : {}),
        })
        .where('id', '=', used.id)
        .execute();
      // The signer holds it by its own clock, and its hold end replaces this one on the row.
      if (changed) {
        await queuePayoutRegistration(trx, sign, {
          appId: app.id,
          paymentMethodId: used.payment_method_id,
          address: address.address,
          at: new Date(nowIso),
        });
      }
    });
    return { payoutHeldUntil: heldUntil };
  }
  if (input.status === undefined) throw fieldInvalid('status', 'Status is required');
  await db
    .updateTable('app_payment_methods')
    .set(
      input.type === 'deposit_status'
        ? { deposit_status: input.status }
        : { withdraw_status: input.status },
    )
    .where('id', '=', used.id)
    .execute();
  return { payoutHeldUntil: null };
}

/**
 * The app's methods with their Operational Wallet (gas address, null while being made) and what
 * a balance read needs: the portal's modal and the gateway's GET /operational-wallets read these.
 */
export function gasWallets(db: Db, appId: string) {
  return db
    .selectFrom('app_payment_methods')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
    .select([
      'app_payment_methods.gas_address',
      'payment_methods.code',
      'payment_methods.chain_id',
      'payment_methods.network_name',
      'payment_methods.network_type',
      'payment_methods.is_token',
      'payment_methods.token_contract_address',
      'payment_methods.decimals',
    ])
    .where('app_payment_methods.app_id', '=', appId);
}

/**
 * Balances of the Operational Wallet of a method in use, in micro units: only at the gas address
 * the app's method has (another address is unknown), on a chain this server can read.
 */
export async function gasWalletBalances(
  db: Db,
  balances: GasBalanceReader,
  userId: string,
  target: { appId: string; paymentMethodId: string; gasAddress: string },
) {
  const app = await ownedApp(db, userId, target.appId);
  const used = await gasWallets(db, app.id)
    .where('app_payment_methods.payment_method_id', '=', target.paymentMethodId)
    .executeTakeFirst();
  if (!used?.gas_address || !sameAddress(used.gas_address, target.gasAddress)) {
    throw new NotFoundError();
  }
  try {
    return await balances.read(used, used.gas_address);
  } catch (error) {
    if (error instanceof ChainNotServedError) throw new InvalidError(error.message);
    throw error;
  }
}
