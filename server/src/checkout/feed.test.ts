import { StatusFeed, type FeedSource, type StatusListener } from './feed';
import type { CheckoutStatus } from './screens';

// The status feed: however many streams are open, one fingerprint query a tick for all of them
// and one load per changed invoice, fanned out to that invoice's streams; no timer when idle.

function fakeSource(prints: Map<string, string>) {
  const calls = { fingerprints: 0, status: [] as string[] };
  const source: FeedSource = {
    fingerprints: async (ids) => {
      calls.fingerprints += 1;
      return new Map(ids.flatMap((id) => (prints.has(id) ? [[id, prints.get(id) ?? '']] : [])));
    },
    status: async (id): Promise<CheckoutStatus> => {
      calls.status.push(id);
      return { screen: 'waiting', key: prints.get(id) ?? '' };
    },
  };
  return { source, calls };
}

function listener() {
  const got: CheckoutStatus[] = [];
  const l: StatusListener & { got: CheckoutStatus[]; pings: number } = {
    got,
    pings: 0,
    status: (s) => got.push(s),
    ping: () => {
      l.pings += 1;
    },
  };
  return l;
}

describe('checkout status feed', () => {
  it('asks once a tick for every open stream, and loads only what changed', async () => {
    const prints = new Map([
      ['inv_a', 'a1'],
      ['inv_b', 'b1'],
    ]);
    const { source, calls } = fakeSource(prints);
    // A long tick: the test turns the feed by hand.
    const feed = new StatusFeed(source, { tickMs: 60_000, pingEvery: 3 });
    const onA = Array.from({ length: 500 }, () => listener());
    const onB = Array.from({ length: 500 }, () => listener());
    const stops = [
      ...onA.map((l) => feed.subscribe('inv_a', l)),
      ...onB.map((l) => feed.subscribe('inv_b', l)),
    ];
    expect(feed.streams).toBe(1000);

    await feed.tick();
    // First sight of each invoice: one load each, to every stream.
    expect(calls).toEqual({ fingerprints: 1, status: ['inv_a', 'inv_b'] });
    expect(onA.every((l) => l.got.length === 1)).toBe(true);

    await feed.tick();
    expect(calls).toEqual({ fingerprints: 2, status: ['inv_a', 'inv_b'] });

    prints.set('inv_b', 'b2');
    await feed.tick();
    expect(calls).toEqual({ fingerprints: 3, status: ['inv_a', 'inv_b', 'inv_b'] });
    expect(onB.every((l) => l.got.at(-1)?.key === 'b2')).toBe(true);
    expect(onA.every((l) => l.got.length === 1)).toBe(true);
    // Every third tick pings every stream.
    expect(onA.every((l) => l.pings === 1)).toBe(true);

    for (const stop of stops) stop();
    expect(feed.streams).toBe(0);
    await feed.tick();
    expect(calls.fingerprints).toBe(3);
    feed.close();
  });

  it('runs its timer only while a stream is open', async () => {
    const { source, calls } = fakeSource(new Map([['inv_a', 'a1']]));
    const feed = new StatusFeed(source, { tickMs: 10, pingEvery: 1000 });
    const stop = feed.subscribe('inv_a', listener());
    await new Promise((r) => setTimeout(r, 60));
    expect(calls.fingerprints).toBeGreaterThan(0);
    stop();
    const after = calls.fingerprints;
    await new Promise((r) => setTimeout(r, 60));
    expect(calls.fingerprints).toBe(after);
    feed.close();
  });
});
