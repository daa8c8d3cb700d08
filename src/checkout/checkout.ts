// The checkout page's own script (/pay/{id}), framework-free: the page is complete without it
// (server/src/checkout/page.tsx draws it), and this only adds what needs a browser:
// - copy buttons for the address and the amount, announced as "Copied";
// - a countdown, silent until the last five minutes, then announced at a few thresholds only;
// - live status: Server-Sent Events, or polling where they fail; on a change, the new state's
//   screen is fetched and swapped in without a reload, announced through the page's aria-live
//   region, and the focus moves to its heading;
// - the paid screen's return to the merchant after a few seconds.
// Every sentence comes from the page (data-* attributes of <main>, drawn from the catalogue).

const POLL_MS = 5_000;
const REDIRECT_MS = 5_000;
const COPIED_MS = 2_000;
/** Seconds left at which the countdown speaks (once each). */
const THRESHOLDS = [300, 120, 60, 30, 0];

interface Status {
  screen: string;
  key: string;
}

const root = document.getElementById('checkout');
const announcer = document.getElementById('announcer');
if (root && announcer && root.dataset.invoice) start(root, announcer, root.dataset.invoice);

function start(main: HTMLElement, live: HTMLElement, invoice: string): void {
  const text = main.dataset;
  /** The state's screen alone, for the chosen method in the page's language. */
  const fragment = text.fragment ?? `/pay/${invoice}/fragment`;
  /** Timers of the screen shown now, stopped when another replaces it. */
  let screenTimers: number[] = [];
  let stopListening: (() => void) | undefined;
  let swapping = false;
  /** The newest state that arrived while another was being swapped in: shown after it. */
  let pending: Status | undefined;

  const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const section = () => main.querySelector<HTMLElement>('[data-screen]');

  const say = (message: string) => {
    // Emptied first, so the same words said twice are heard twice.
    live.textContent = '';
    window.setTimeout(() => {
      live.textContent = message;
    }, 100);
  };

  const fill = (template: string | undefined, name: string, value: number) =>
    (template ?? '').replace(`{${name}}`, String(value));

  function enhance(): void {
    for (const id of screenTimers) window.clearInterval(id);
    screenTimers = [];
    for (const button of main.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
      if (!navigator.clipboard) continue;
      button.hidden = false;
      const label = button.textContent ?? '';
      button.addEventListener('click', () => {
        void navigator.clipboard.writeText(button.dataset.copy ?? '').then(() => {
          button.textContent = text.copied ?? '';
          say(text.copied ?? '');
          screenTimers.push(
            window.setTimeout(() => {
              button.textContent = label;
            }, COPIED_MS),
          );
        });
      });
    }
    const countdown = main.querySelector<HTMLElement>('[data-expires]');
    if (countdown) startCountdown(countdown);
    const redirect = section()?.dataset.redirect;
    if (redirect)
      screenTimers.push(window.setTimeout(() => location.assign(redirect), REDIRECT_MS));
  }

  function startCountdown(element: HTMLElement): void {
    const end = Date.parse(element.dataset.expires ?? '');
    if (Number.isNaN(end)) return;
    element.hidden = false;
    // Thresholds already behind at the start are not announced.
    let spoken = THRESHOLDS.filter((s) => (end - Date.now()) / 1000 <= s).length;
    const tick = () => {
      const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      const minutes = Math.floor(left / 60);
      const seconds = String(left % 60).padStart(2, '0');
      element.textContent = `${text.left ?? ''} ${minutes}:${seconds}`;
      const next = THRESHOLDS[spoken];
      if (next !== undefined && left <= next) {
        spoken = THRESHOLDS.filter((s) => left <= s).length;
        // Whole minutes rounded up, so a timer the browser held back (a background tab) says
        // "2 minutes" at 85 s, never "1 minutes"; seconds only while there are more than ten,
        // the end itself being said at 0.
        if (left === 0) say(text.over ?? '');
        else if (left > 60) say(fill(text.minutes, 'minutes', Math.ceil(left / 60)));
        else if (left > 30) say(text.minute ?? '');
        else if (left > 10) say(fill(text.seconds, 'seconds', left));
      }
    };
    tick();
    screenTimers.push(window.setInterval(tick, 1000));
  }

  async function show(status: Status): Promise<void> {
    if (swapping) {
      pending = status;
      return;
    }
    const shown = section();
    if (!shown || status.key === shown.dataset.key) return;
    swapping = true;
    try {
      const res = await fetch(fragment, {
        headers: { accept: 'text/html' },
      });
      if (!res.ok) return;
      const before = shown.dataset.screen;
      // Replacing the markup drops the focus to the body; a reader who was inside keeps it.
      const focusedInside = main.contains(document.activeElement);
      main.innerHTML = await res.text();
      const now = section();
      if (!now) return;
      enhance();
      const heading = now.querySelector<HTMLElement>('h1');
      const detail = now.querySelector<HTMLElement>('[data-announce]')?.textContent ?? '';
      if (now.dataset.screen !== before && heading) {
        heading.focus({ preventScroll: true });
        heading.scrollIntoView({ behavior: reducedMotion() ? 'auto' : 'smooth', block: 'start' });
        say(`${heading.textContent ?? ''}. ${detail}`);
      } else {
        if (focusedInside) heading?.focus({ preventScroll: true });
        say(detail);
      }
      if (now.dataset.live !== 'true') stopListening?.();
    } finally {
      swapping = false;
      const next = pending;
      pending = undefined;
      if (next) void show(next);
    }
  }

  function poll(): () => void {
    let timer = 0;
    let stopped = false;
    const turn = async () => {
      try {
        const res = await fetch(`/pay/${invoice}/status`, {
          headers: { accept: 'application/json' },
        });
        if (res.ok) await show((await res.json()) as Status);
      } catch {
        // Offline a moment: the next turn asks again.
      }
      if (!stopped) timer = window.setTimeout(() => void turn(), POLL_MS);
    };
    timer = window.setTimeout(() => void turn(), POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }

  function listen(): void {
    if (section()?.dataset.live !== 'true') return;
    if (typeof EventSource !== 'function') {
      stopListening = poll();
      return;
    }
    const events = new EventSource(`/pay/${invoice}/events`);
    events.addEventListener('status', (event) => {
      void show(JSON.parse((event as MessageEvent<string>).data) as Status);
    });
    // A refused or broken stream (the browser retries a dropped one itself) falls back to polling.
    events.addEventListener('error', () => {
      if (events.readyState !== EventSource.CLOSED) return;
      stopListening = poll();
    });
    stopListening = () => events.close();
  }

  enhance();
  listen();
}

// A module, so its names stay its own (esbuild wraps it in a function for the page).
export {};
