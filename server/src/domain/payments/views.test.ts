import type { GatewayDeposit } from './depositReads';
import { depositView } from './views';

// A failed deposit's reason reaches the gateway whether it failed before the credit (the
// watcher) or after it (gas for the sweep, the sweep itself), as gateway.yaml lists them.

const failed: GatewayDeposit = {
  id: 'rcv_1',
  uniqueId: 'order-1',
  methodCode: 'USDT_BSC',
  chainId: 56,
  address: '0x00000000000000000000000000000000000000aa',
  txHash: `0x${'1'.repeat(64)}`,
  logIndex: 0,
  blockNumber: 10,
  amount: '25.5',
  status: 5,
  failureReason: null,
  createdAt: '2026-11-29T05:00:00Z',
  creditedAt: null,
  waiting: null,
  flag: null,
};

describe('depositView', () => {
  it.each(['below_minimum', 'reorged', 'gas_failed', 'sweep_failed'] as const)(
    'answers failure_reason %s',
    (reason) => {
      expect(depositView({ ...failed, failureReason: reason }).failure_reason).toBe(reason);
    },
  );

  it('answers null for a deposit that did not fail or a reason the contract does not list', () => {
    expect(depositView(failed).failure_reason).toBeNull();
    expect(depositView({ ...failed, failureReason: 'something_else' }).failure_reason).toBeNull();
  });
});
