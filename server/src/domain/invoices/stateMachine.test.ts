import {
  cancelState,
  InvoiceStateRefusal,
  markState,
  nextState,
  type InvoiceStatus,
  type MachineInvoice,
  type MachinePayment,
  type PaymentStatus,
  type Situation,
  type StatusEvent,
} from './stateMachine';

// Every move of the invoice state machine, as tables: each status in each situation the payments
// and the clock can make, the flags each payment pattern gives, and the merchant's cancel and mark
// from every status.

const CREATED = Date.parse('2026-11-01T09:00:00.000Z');
const minutes = (m: number) => new Date(CREATED + m * 60_000);
/** Expires 15 minutes after creation; late window 60 minutes (until minute 75). */
const EXPIRES = 15;

function invoice(status: InvoiceStatus, overrides: Partial<MachineInvoice> = {}): MachineInvoice {
  return {
    status,
    paidPartial: false,
    paidOver: false,
    paidLate: false,
    marked: false,
    invalidReason: status === 'invalid' ? 'cancelled' : null,
    amount: '49.90',
    valuePlaces: 2,
    expiresAt: minutes(EXPIRES),
    underpaymentTolerance: '0',
    lateWindowMinutes: 60,
    ...overrides,
  };
}

const pay = (value: string, status: PaymentStatus, atMinute: number): MachinePayment => ({
  value,
  status,
  paidAt: minutes(atMinute),
});

/** Payments and a time that make each situation. */
const SITUATIONS: Record<Situation, { payments: MachinePayment[]; now: Date }> = {
  // 20 of 49.90 paid, before the expiry.
  short: { payments: [pay('20.00', 'pending', 5)], now: minutes(10) },
  // The same after the expiry.
  shortExpired: { payments: [pay('20.00', 'confirmed', 5)], now: minutes(20) },
  // Covered within the late window (minute 30), not final.
  covered: {
    payments: [pay('20.00', 'confirmed', 5), pay('29.90', 'pending', 30)],
    now: minutes(31),
  },
  // The same, every payment final.
  final: {
    payments: [pay('20.00', 'confirmed', 5), pay('29.90', 'confirmed', 30)],
    now: minutes(40),
  },
  // Completed after the late window (minute 80 > 75).
  coveredTooLate: {
    payments: [pay('20.00', 'confirmed', 5), pay('29.90', 'confirmed', 80)],
    now: minutes(90),
  },
};

type Row = [InvoiceStatus, Situation, InvoiceStatus, StatusEvent[]];

/** From each status, in each situation: the next status and the events recorded. */
const MOVES: Row[] = [
  ['new', 'short', 'new', []],
  ['new', 'shortExpired', 'expired', ['invoice.expired']],
  ['new', 'covered', 'processing', ['invoice.processing']],
  ['new', 'final', 'settled', ['invoice.processing', 'invoice.settled']],
  ['new', 'coveredTooLate', 'expired', ['invoice.expired']],
  ['processing', 'short', 'new', []],
  ['processing', 'shortExpired', 'invalid', ['invoice.invalid']],
  ['processing', 'covered', 'processing', []],
  ['processing', 'final', 'settled', ['invoice.settled']],
  ['processing', 'coveredTooLate', 'invalid', ['invoice.invalid']],
  ['settled', 'short', 'settled', []],
  ['settled', 'shortExpired', 'settled', []],
  ['settled', 'covered', 'settled', []],
  ['settled', 'final', 'settled', []],
  ['settled', 'coveredTooLate', 'settled', []],
  ['expired', 'short', 'expired', []],
  ['expired', 'shortExpired', 'expired', []],
  ['expired', 'covered', 'processing', ['invoice.processing']],
  ['expired', 'final', 'settled', ['invoice.processing', 'invoice.settled']],
  ['expired', 'coveredTooLate', 'expired', []],
  ['invalid', 'short', 'invalid', []],
  ['invalid', 'shortExpired', 'invalid', []],
  ['invalid', 'covered', 'invalid', []],
  ['invalid', 'final', 'invalid', []],
  ['invalid', 'coveredTooLate', 'invalid', []],
];

describe('the invoice state machine', () => {
  it.each(MOVES)('%s, %s: %s', (from, situation, to, events) => {
    const { payments, now } = SITUATIONS[situation];
    const moved = nextState(invoice(from), payments, now);
    expect(moved.state.status).toBe(to);
    expect(moved.events).toEqual(events);
  });

  it.each(MOVES.map(([from, situation]) => [from, situation] as const))(
    'marked %s, %s: stays where the merchant put it',
    (from, situation) => {
      const { payments, now } = SITUATIONS[situation];
      const moved = nextState(invoice(from, { marked: true }), payments, now);
      expect(moved.state).toMatchObject({ status: from, marked: true });
      expect(moved.events).toEqual([]);
    },
  );

  it('says why an invoice became invalid, and keeps the reason it had', () => {
    const { payments, now } = SITUATIONS.shortExpired;
    expect(nextState(invoice('processing'), payments, now).state.invalidReason).toBe(
      'payment_removed',
    );
    expect(nextState(invoice('invalid'), payments, now).state.invalidReason).toBe('cancelled');
    expect(nextState(invoice('expired'), payments, now).state.invalidReason).toBeNull();
  });

  type FlagRow = [string, MachinePayment[], Date, InvoiceStatus, string[]];
  /** Payment patterns: the status a new invoice reaches and its flags (marked aside). */
  const PATTERNS: FlagRow[] = [
    ['nothing paid', [], minutes(10), 'new', []],
    ['nothing paid by the expiry', [], minutes(EXPIRES), 'expired', []],
    [
      'partial payments add up while new',
      [pay('20', 'pending', 2), pay('9.90', 'confirmed', 4)],
      minutes(10),
      'new',
      ['paidPartial'],
    ],
    [
      'two partial payments complete it',
      [pay('20', 'confirmed', 2), pay('29.90', 'pending', 4)],
      minutes(10),
      'processing',
      [],
    ],
    ['expires short', [pay('20', 'confirmed', 2)], minutes(16), 'expired', ['paidPartial']],
    ['paid over', [pay('60', 'pending', 2)], minutes(10), 'processing', ['paidOver']],
    // 53.9 USDT, the amount due rounded up, at 1 / 1.08: 49.9074... EUR, 49.90 to the cent.
    [
      'paid the amount due, rounded up',
      [pay('49.9074074074074074', 'pending', 2)],
      minutes(10),
      'processing',
      [],
    ],
    ['paid a cent over', [pay('49.91', 'pending', 2)], minutes(10), 'processing', ['paidOver']],
    [
      'paid over, final',
      [pay('49.90', 'confirmed', 2), pay('0.01', 'confirmed', 3)],
      minutes(10),
      'settled',
      ['paidOver'],
    ],
    [
      'completed in the late window',
      [pay('49.90', 'pending', 40)],
      minutes(41),
      'processing',
      ['paidLate'],
    ],
    [
      'completed in the late window, final',
      [pay('49.90', 'confirmed', 40)],
      minutes(50),
      'settled',
      ['paidLate'],
    ],
    [
      'completed at the end of the late window',
      [pay('49.90', 'confirmed', 75)],
      minutes(76),
      'settled',
      ['paidLate'],
    ],
    [
      'completed after the late window',
      [pay('49.90', 'confirmed', 75.001)],
      minutes(80),
      'expired',
      ['paidLate'],
    ],
    [
      'short and late',
      [pay('20', 'confirmed', 2), pay('10', 'confirmed', 20)],
      minutes(30),
      'expired',
      ['paidPartial', 'paidLate'],
    ],
    // Mined before the expiry, seen after it (the watcher lagged, or the server was down): on time.
    [
      'mined in time, seen after a restart',
      [pay('49.90', 'confirmed', 14)],
      minutes(500),
      'settled',
      [],
    ],
    [
      'a removed payment counts for nothing',
      [pay('49.90', 'removed', 2), pay('20', 'pending', 3)],
      minutes(10),
      'new',
      ['paidPartial'],
    ],
    [
      'final only when the confirmed ones cover it',
      [pay('20', 'confirmed', 2), pay('29.90', 'pending', 3), pay('5', 'confirmed', 4)],
      minutes(10),
      'processing',
      ['paidOver'],
    ],
  ];

  it.each(PATTERNS)('%s', (_name, payments, now, status, flags) => {
    const { state } = nextState(invoice('new'), payments, now);
    expect(state.status).toBe(status);
    const raised = (['paidPartial', 'paidOver', 'paidLate', 'marked'] as const).filter(
      (flag) => state[flag],
    );
    expect(raised).toEqual(flags);
  });

  it.each([
    ['0', '49.89', 'new'],
    ['1', '49.40', 'new'],
    ['1', '49.401', 'processing'],
    ['1', '49.41', 'processing'],
    ['0.5', '49.6505', 'processing'],
    ['0.5', '49.6504', 'new'],
  ])('with a %s %% tolerance, %s of 49.90 leaves a new invoice %s', (tolerance, paid, status) => {
    const { state } = nextState(
      invoice('new', { underpaymentTolerance: tolerance }),
      [pay(paid, 'pending', 2)],
      minutes(5),
    );
    expect(state.status).toBe(status);
    // Within the tolerance it counts as full: no paid_partial.
    expect(state.paidPartial).toBe(status === 'new');
  });

  it('sends a processing invoice back to new when a reorg removes its covering payment, or to invalid once expired', () => {
    const removed = [pay('20', 'confirmed', 2), pay('29.90', 'removed', 4)];
    expect(nextState(invoice('processing'), removed, minutes(10))).toEqual({
      state: expect.objectContaining({ status: 'new', paidPartial: true, invalidReason: null }),
      events: [],
    });
    expect(nextState(invoice('processing'), removed, minutes(EXPIRES))).toEqual({
      state: expect.objectContaining({ status: 'invalid', invalidReason: 'payment_removed' }),
      events: ['invoice.invalid'],
    });
  });

  type Refused = { refused: string };
  type Act = ['cancel'] | ['mark', 'settled' | 'invalid'];
  const ACTIONS: [InvoiceStatus, MachinePayment[], Act, Partial<MachineInvoice> | Refused][] = [
    ['new', [], ['cancel'], { status: 'invalid', invalidReason: 'cancelled', marked: false }],
    [
      'new',
      [pay('49.90', 'removed', 2)],
      ['cancel'],
      { status: 'invalid', invalidReason: 'cancelled' },
    ],
    [
      'new',
      [pay('20', 'pending', 2)],
      ['cancel'],
      {
        refused:
          'The invoice has payments: it can no longer be cancelled. Mark it invalid instead.',
      },
    ],
    [
      'processing',
      [],
      ['cancel'],
      { refused: 'The invoice is processing: only a new invoice can be cancelled.' },
    ],
    [
      'settled',
      [],
      ['cancel'],
      { refused: 'The invoice is settled: only a new invoice can be cancelled.' },
    ],
    [
      'expired',
      [],
      ['cancel'],
      { refused: 'The invoice is expired: only a new invoice can be cancelled.' },
    ],
    [
      'invalid',
      [],
      ['cancel'],
      { refused: 'The invoice is invalid: only a new invoice can be cancelled.' },
    ],
    ['new', [], ['mark', 'settled'], { status: 'settled', marked: true, invalidReason: null }],
    ['processing', [], ['mark', 'settled'], { status: 'settled', marked: true }],
    [
      'expired',
      [pay('20', 'confirmed', 2)],
      ['mark', 'settled'],
      { status: 'settled', marked: true, paidPartial: true },
    ],
    ['invalid', [], ['mark', 'settled'], { status: 'settled', marked: true, invalidReason: null }],
    [
      'settled',
      [],
      ['mark', 'settled'],
      { refused: 'The invoice is settled: it cannot be marked any more.' },
    ],
    ['new', [], ['mark', 'invalid'], { status: 'invalid', marked: true, invalidReason: 'marked' }],
    [
      'processing',
      [],
      ['mark', 'invalid'],
      { status: 'invalid', marked: true, invalidReason: 'marked' },
    ],
    [
      'expired',
      [],
      ['mark', 'invalid'],
      { status: 'invalid', marked: true, invalidReason: 'marked' },
    ],
    [
      'invalid',
      [],
      ['mark', 'invalid'],
      { refused: 'The invoice is invalid: it cannot be marked invalid.' },
    ],
    [
      'settled',
      [],
      ['mark', 'invalid'],
      { refused: 'The invoice is settled: it cannot be marked any more.' },
    ],
  ];

  it.each(ACTIONS)('%s, paid %j: %j', (status, payments, act, expected) => {
    const run = () =>
      act[0] === 'cancel'
        ? cancelState(invoice(status), payments)
        : markState(invoice(status), payments, act[1]);
    if ('refused' in expected) {
      expect(run).toThrow(new InvoiceStateRefusal(status, expected.refused));
      try {
        run();
      } catch (err) {
        expect(err).toMatchObject({ status });
      }
      return;
    }
    const { state, events } = run();
    expect(state).toMatchObject(expected);
    expect(events).toEqual([state.status === 'settled' ? 'invoice.settled' : 'invoice.invalid']);
  });
});
