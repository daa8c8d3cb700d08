import { http, HttpResponse } from 'msw';
import { waitFor } from '@testing-library/react';
import { server } from '../../test/msw/server';

// The checkout page's script on the server's markup (server/src/checkout/page.tsx): copy
// buttons shown only where they work, the countdown silent until five minutes are left, and a
// changed state swapped in from polling (no EventSource here), its heading focused and said.

const INVOICE = 'inv_0000000000000000000000000a';

function page(expiresInMs: number) {
  const expires = new Date(Date.now() + expiresInMs).toISOString();
  document.body.innerHTML = `
    <main id="checkout" tabindex="-1" data-invoice="${INVOICE}" data-fragment="/pay/${INVOICE}/fragment"
      data-copied="Copied" data-left="Time left" data-minutes="{minutes} minutes left to pay"
      data-minute="1 minute left to pay" data-seconds="{seconds} seconds left to pay"
      data-over="The time to pay is over">
      <section class="screen" data-screen="waiting" data-key="k1" data-live="true">
        <h1 tabindex="-1">Pay 25 USDT</h1>
        <button type="button" class="copy" data-copy="25" hidden>Copy amount</button>
        <span class="countdown" data-expires="${expires}" hidden></span>
      </section>
    </main>
    <div id="announcer" aria-live="polite"></div>`;
}

/** Runs the script afresh on the page, as a browser does on each load. */
async function start() {
  await jest.isolateModulesAsync(async () => {
    await import('./checkout');
  });
}

const announcer = () => document.getElementById('announcer')?.textContent ?? '';

beforeEach(() => {
  jest.useFakeTimers({ advanceTimers: false, doNotFake: ['queueMicrotask', 'nextTick'] });
  window.matchMedia = ((query: string) => ({ matches: false, media: query })) as never;
  Element.prototype.scrollIntoView = () => undefined;
  Reflect.deleteProperty(window, 'EventSource');
  // Polling finds nothing new unless a test says otherwise.
  server.use(
    http.get(`*/pay/${INVOICE}/status`, () => HttpResponse.json({ screen: 'waiting', key: 'k1' })),
  );
});
afterEach(() => {
  jest.useRealTimers();
});

test('the countdown is silent until five minutes are left, then speaks at thresholds', async () => {
  page(5 * 60_000 + 10_500);
  await start();
  expect(document.querySelector('.countdown')?.textContent).toBe('Time left 5:11');
  jest.advanceTimersByTime(5_000);
  expect(announcer()).toBe('');
  // The threshold's tick, and the live region's short pause (so repeated words are heard).
  jest.advanceTimersByTime(6_200);
  expect(announcer()).toBe('5 minutes left to pay');
  jest.advanceTimersByTime(60_000);
  // Nothing new between thresholds.
  expect(announcer()).toBe('5 minutes left to pay');
  jest.advanceTimersByTime(120_000);
  expect(announcer()).toBe('2 minutes left to pay');
});

test('a countdown the browser held back says the threshold it passed, not "1 minutes"', async () => {
  page(3 * 60_000);
  await start();
  expect(announcer()).toBe('');
  // A background tab: no tick for a while, then one at 85 s left.
  jest.setSystemTime(Date.now() + 95_000);
  jest.advanceTimersByTime(1_200);
  expect(announcer()).toBe('2 minutes left to pay');
  jest.setSystemTime(Date.now() + 40_000);
  jest.advanceTimersByTime(1_200);
  expect(announcer()).toBe('1 minute left to pay');
  jest.setSystemTime(Date.now() + 20_000);
  jest.advanceTimersByTime(1_200);
  expect(announcer()).toBe('22 seconds left to pay');
});

test('a countdown held back to its last seconds says only the end', async () => {
  page(40_000);
  await start();
  jest.setSystemTime(Date.now() + 38_500);
  jest.advanceTimersByTime(1_200);
  expect(announcer()).toBe('');
  jest.advanceTimersByTime(1_000);
  expect(announcer()).toBe('The time to pay is over');
});

test('copy buttons show only where the clipboard works', async () => {
  page(900_000);
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  await start();
  expect(document.querySelector('button')?.hidden).toBe(true);
  page(900_000);
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: jest.fn(async () => undefined) },
    configurable: true,
  });
  await start();
  expect(document.querySelector('button')?.hidden).toBe(false);
});

test('a changed state is swapped in, its heading focused and said', async () => {
  server.use(
    http.get(`*/pay/${INVOICE}/status`, () => HttpResponse.json({ screen: 'partial', key: 'k2' })),
    http.get(
      `*/pay/${INVOICE}/fragment`,
      () =>
        new HttpResponse(
          '<section class="screen" data-screen="partial" data-key="k2" data-live="true">' +
            '<h1 tabindex="-1">Still due: 15 USDT</h1>' +
            '<p data-announce="">We received 10 USDT.</p></section>',
          { headers: { 'content-type': 'text/html' } },
        ),
    ),
  );
  page(900_000);
  await start();
  jest.advanceTimersByTime(5_000);
  jest.useRealTimers();
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(document.querySelector('h1')?.textContent).toBe('Still due: 15 USDT');
  expect(document.activeElement).toBe(document.querySelector('h1'));
  expect(announcer()).toBe('Still due: 15 USDT. We received 10 USDT.');
});

test('an update within the same screen keeps the focus of a reader who was on it', async () => {
  server.use(
    http.get(`*/pay/${INVOICE}/status`, () => HttpResponse.json({ screen: 'waiting', key: 'k2' })),
    http.get(
      `*/pay/${INVOICE}/fragment`,
      () =>
        new HttpResponse(
          '<section class="screen" data-screen="waiting" data-key="k2" data-live="true">' +
            '<h1 tabindex="-1">Pay 25 USDT</h1>' +
            '<p data-announce="">1 of 15 confirmations.</p></section>',
          { headers: { 'content-type': 'text/html' } },
        ),
    ),
  );
  page(900_000);
  await start();
  document.querySelector<HTMLElement>('h1')?.focus();
  jest.advanceTimersByTime(5_000);
  jest.useRealTimers();
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(document.querySelector('[data-announce]')?.textContent).toBe('1 of 15 confirmations.');
  expect(document.activeElement).toBe(document.querySelector('h1'));
  expect(announcer()).toBe('1 of 15 confirmations.');
});

/** A stream the test drives: each `emit` is a status event from the server. */
class FakeEventSource {
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = 1;
  private readonly listeners = new Map<string, (event: { data: string }) => void>();
  constructor() {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(status: { screen: string; key: string }) {
    this.listeners.get('status')?.({ data: JSON.stringify(status) });
  }
}

test('a state that arrives while the one before is swapped in is shown after it', async () => {
  jest.useRealTimers();
  const screen = (key: string, title: string) =>
    new HttpResponse(
      `<section class="screen" data-screen="${key}" data-key="${key}" data-live="true">` +
        `<h1 tabindex="-1">${title}</h1><p data-announce=""></p></section>`,
      { headers: { 'content-type': 'text/html' } },
    );
  let served = 0;
  server.use(
    http.get(`*/pay/${INVOICE}/fragment`, async () => {
      served += 1;
      if (served > 1) return screen('paid', 'Paid');
      // Still on its way when the next state arrives.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return screen('received', 'Payment received');
    }),
  );
  FakeEventSource.opened = [];
  Object.defineProperty(window, 'EventSource', { value: FakeEventSource, configurable: true });
  page(900_000);
  await start();
  const [stream] = FakeEventSource.opened;
  stream?.emit({ screen: 'received', key: 'received' });
  stream?.emit({ screen: 'paid', key: 'paid' });
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Paid'));
  expect(served).toBe(2);
});
