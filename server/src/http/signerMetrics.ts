import type { Metrics } from './metrics';

/**
 * signer_refusals_total: requests the signer refused because it could not trust them (a
 * withdrawal whose MAC does not match its row, a sweep to a payout address it does not know),
 * counted by the process whose job got the answer. Any increase is an incident: alert on it.
 */
export function signerRefusals(metrics: Metrics): (request: 'withdrawal' | 'sweep') => void {
  const inc = metrics.counter({
    name: 'signer_refusals_total',
    help: 'Requests the signer refused as untrusted (MAC mismatch, unknown payout address), by request.',
    labelNames: ['request'],
  });
  return (request) => inc({ request });
}
