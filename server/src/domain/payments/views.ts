import type { GatewayDeposit } from './depositReads';
import type { Withdrawal } from './withdrawalReads';
import type { components } from '../../generated/gateway.gen';
import type { Unmoded } from '../livemode';

type GatewaySchemas = components['schemas'];

// The gateway's JSON shapes of domain records, shared by its handlers and by the webhook
// events, whose `data` must be exactly what the API answers.

/** Why a deposit failed: before the credit (below_minimum, reorged) or after it (gas, sweep). */
const DEPOSIT_FAILURES = ['below_minimum', 'reorged', 'gas_failed', 'sweep_failed'] as const;

export function depositView(deposit: GatewayDeposit): Unmoded<GatewaySchemas['Deposit']> {
  return {
    id: deposit.id,
    unique_id: deposit.uniqueId,
    method: deposit.methodCode,
    chain_id: deposit.chainId,
    address: deposit.address,
    tx_hash: deposit.txHash,
    log_index: deposit.logIndex,
    block_number: deposit.blockNumber,
    amount: deposit.amount,
    status: deposit.status,
    failure_reason: DEPOSIT_FAILURES.find((reason) => reason === deposit.failureReason) ?? null,
    created_at: deposit.createdAt,
    credited_at: deposit.creditedAt,
    waiting_reason: deposit.waiting,
    flag: deposit.flag,
  };
}

export function withdrawalView(withdrawal: Withdrawal): Unmoded<GatewaySchemas['Withdrawal']> {
  return {
    id: withdrawal.id,
    unique_id: withdrawal.uniqueId,
    method: withdrawal.methodCode,
    chain_id: withdrawal.chainId,
    from_address: withdrawal.fromAddress,
    to_address: withdrawal.toAddress,
    amount: withdrawal.amount,
    status: withdrawal.status,
    tx_hash: withdrawal.txHash,
    failure_reason: withdrawal.failureReason,
    waiting_reason: withdrawal.waiting,
    created_at: withdrawal.createdAt,
    updated_at: withdrawal.updatedAt,
  };
}
