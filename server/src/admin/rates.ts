import { InvalidError } from '../domain/errors';
import { DEFAULT_TABLE_MAX_AGE_HOURS, setTableRate, tableRates } from '../domain/rates/table';
import { printTable, UsageError, type AdminCommand } from './command';

// The operator's rate table (domain/rates/table.ts): the rates invoices use where no peg or
// Chainlink feed has a fresh one, e.g. every pair on the local chain.

const rateSet: AdminCommand = {
  name: 'rate set',
  usage: 'rate set <BASE/QUOTE> <rate> [fresh-hours]',
  description: `Set a rate of the table (one BASE costs <rate> QUOTE, e.g. EUR/USD 1.08), fresh for [fresh-hours] (${DEFAULT_TABLE_MAX_AGE_HOURS} unless said).`,
  async run(args, { db }, io) {
    const [pair, rate, hours, extra] = args;
    if (!pair || !rate || extra !== undefined) throw new UsageError('Wrong arguments.');
    if (hours !== undefined && !/^\d+$/.test(hours)) {
      throw new UsageError(`'${hours}' is not a number of hours.`);
    }
    const now = new Date();
    const maxAgeHours = hours === undefined ? DEFAULT_TABLE_MAX_AGE_HOURS : Number(hours);
    try {
      const set = await setTableRate(db, { pair, rate, maxAgeHours, now });
      const until = new Date(now.getTime() + set.maxAgeSeconds * 1000).toISOString();
      io.out(`${set.pair} = ${set.rate}, set at ${set.setAt}, fresh until ${until}.`);
      return 0;
    } catch (err) {
      if (!(err instanceof InvalidError)) throw err;
      io.out(err.message);
      return 2;
    }
  },
};

const rateList: AdminCommand = {
  name: 'rate list',
  usage: 'rate list',
  description:
    'List the rate table: each pair, its rate, when it was set and until when it is fresh.',
  async run(_args, { db }, io) {
    const now = Date.now();
    printTable(
      io,
      (await tableRates(db)).map((r) => {
        const until = Date.parse(r.setAt) + r.maxAgeSeconds * 1000;
        return {
          pair: r.pair,
          rate: r.rate,
          set_at: r.setAt,
          fresh_until: `${new Date(until).toISOString()}${until < now ? ' (stale)' : ''}`,
        };
      }),
    );
    return 0;
  },
};

export const rateCommands = [rateSet, rateList];
