// Jest's order of the journeys for `npm run test:e2e` (scripts/e2e.mjs passes it as
// --testSequencer; CommonJS: Jest loads a sequencer with require).
//
// Two journeys run at a time, so the run ends when the last one started ends: the longest should
// start first. Jest's own order does that only with the times of an earlier run in its cache; a
// clean clone has none, and Jest then starts the largest files first. A journey's time follows
// its screens and waits, not its length: tour.e2e.ts, the shortest file and one of the longest
// journeys, started last and ran alone for its whole ~2.5 minutes while the other worker idled.
// Without a time from Jest's cache, a journey's weight here is its time in SECONDS (a clean-clone
// run on the 2-core machine, rounded: only the order matters), or for one not listed, its size at
// a rough 100 bytes a second. Failed journeys still go first, as in Jest's own order.
const Sequencer = require('@jest/test-sequencer').default;
const fs = require('node:fs');
const path = require('node:path');

/** @type {Record<string, number>} */
const SECONDS = {
  // English, French and Japanese.
  'tour.e2e.ts': 150,
  'checkout.e2e.ts': 210,
  'withdrawals.e2e.ts': 175,
  'refunds.e2e.ts': 170,
  'apps.e2e.ts': 145,
  'portal.e2e.ts': 140,
  'webhooks.e2e.ts': 140,
  'invoices.e2e.ts': 105,
  'paymentLinks.e2e.ts': 90,
  'security.e2e.ts': 85,
  'access.e2e.ts': 80,
  'gateway.e2e.ts': 75,
  'money.e2e.ts': 70,
  'appLogo.e2e.ts': 60,
  'testMode.e2e.ts': 40,
  'notifications.e2e.ts': 60,
  'recovery.e2e.ts': 55,
  'public.e2e.ts': 45,
};

class JourneySequencer extends Sequencer {
  /** @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    /** @param {import('@jest/test-result').Test} test */
    const weight = (test) =>
      this.time(test) ??
      (SECONDS[path.basename(test.path)] ?? fs.statSync(test.path).size / 100) * 1000;
    return [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      return failed !== 0 ? failed : weight(b) - weight(a);
    });
  }
}

module.exports = JourneySequencer;
