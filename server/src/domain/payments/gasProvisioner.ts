import type { Db } from '../../db/connection';
import { tronAddressFromEvm } from '../chain/addresses';
import { deriveEvmAddress } from '../chain/hdWallet';
import { lockForTransaction } from '../../db/locks';

// The operational (gas) wallet of each payment method an app uses pays that method's network
// fees. Like real gateways, it is created after the method is enabled, by a background job
// rather than inside the request: use-payment-method stores gas_address = null, and this job
// derives the address from the wallet's extended public key (no private key on this server).
//
// Gas wallets live on branch 1 of the account xpub (account/1/0/<gas_index>) so they can never
// collide with the users' deposit addresses (account/0/<index>, domain/chain/hdWallet.ts). Tron
// methods use the same secp256k1 key in Tron form (0x41 prefix, base58check).

export const GAS_BRANCH = 1;
/** A newly enabled method gets its gas address within about this long. */

export function gasAddressFor(xpub: string, networkType: string, index: number): string {
  const evm = deriveEvmAddress(xpub, index, [GAS_BRANCH]);
  return networkType === 'EVM' ? evm : tronAddressFromEvm(evm);
}

/** Gives every app payment method still without one its gas address; returns how many. */
export async function provisionGasAddresses(db: Db, xpub: string, batch = 50): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Two processes provisioning at once would hand out one index twice.
    await lockForTransaction(trx, 'gas_index');
    const pending = await trx
      .selectFrom('app_payment_methods')
      .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
      .select(['app_payment_methods.id', 'payment_methods.network_type'])
      .where('app_payment_methods.gas_address', 'is', null)
      .orderBy('app_payment_methods.created_at', 'asc')
      .orderBy('app_payment_methods.id', 'asc')
      .limit(batch)
      .execute();
    if (pending.length === 0) return 0;
    const { max } = await trx
      .selectFrom('app_payment_methods')
      .select((eb) => eb.fn.max('gas_index').as('max'))
      .executeTakeFirstOrThrow();
    let next = max === null ? 0 : Number(max) + 1;
    for (const row of pending) {
      await trx
        .updateTable('app_payment_methods')
        .set({ gas_index: next, gas_address: gasAddressFor(xpub, row.network_type, next) })
        .where('id', '=', row.id)
        .where('gas_address', 'is', null)
        .execute();
      next += 1;
    }
    return pending.length;
  });
}
