import { setImmediate } from 'node:timers';
import { act } from 'react';
import { hydrateRoot, type HydrationOptions, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from './app/App';
import { createNavigation } from './app/navigation';
import { makeStore } from './app/store';
import { PRERENDERED } from './prerender';
import { ok, on } from '../test/msw/contract';
import { server } from '../test/msw/server';

// Jest resolves react-dom/static to its Node build (as the build does), which schedules with
// setImmediate; jsdom's window has none.
Object.assign(globalThis, { setImmediate });

/**
 * The markup as the build makes it, from modules of its own: React's server renderer leaves the
 * router's context values set on the shared context objects, which the build's process never
 * reuses but a client render in the same module registry would read.
 */
async function renderScreen(path: string): Promise<string> {
  let markup = '';
  await jest.isolateModulesAsync(async () => {
    markup = await (await import('./prerender')).renderScreen(path);
  });
  return markup;
}

describe('prerendered public screens', () => {
  let root: Root | undefined;
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    document.body.innerHTML = '';
    jest.restoreAllMocks();
  });

  /**
   * Hydrates the prerendered `container` at `path`, and waits for the lazy screen to hydrate
   * once its module is in (until then its server markup stays).
   */
  async function hydrate(container: HTMLElement, path: string, options: HydrationOptions = {}) {
    window.history.replaceState(null, '', path);
    await act(async () => {
      root = hydrateRoot(
        container,
        <App store={makeStore()} navigation={createNavigation()} Router={BrowserRouter} />,
        options,
      );
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  }

  it.each(PRERENDERED)('%s hydrates without a mismatch', async (path) => {
    const markup = await renderScreen(path);
    // No inline code in React's markup: the CSP allows only the build's critical CSS, by its
    // hash (webpack.config.ts, server/src/http/web.ts).
    expect(markup).not.toMatch(/<script|<style|\sstyle=/);
    const container = document.createElement('div');
    container.innerHTML = markup;
    document.body.append(container);
    const prerenderedForm = container.querySelector('form');
    expect(prerenderedForm).not.toBeNull();
    // Until the script drives it, the form cannot be sent natively (a GET with its fields).
    const submit = () => container.querySelector('button[type="submit"]');
    expect(submit()).toBeDisabled();
    const consoleError = jest.spyOn(console, 'error');
    const recoverable: unknown[] = [];
    await hydrate(container, path, { onRecoverableError: (error) => recoverable.push(error) });

    expect(recoverable).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    // Hydrated, not replaced: the same form node, now driven by React.
    expect(container.querySelector('form')).toBe(prerenderedForm);
    expect(submit()).toBeEnabled();
    const [firstField] = screen.getAllByRole('textbox');
    await userEvent.type(firstField!, 'demo');
    expect(firstField).toHaveValue('demo');
  });

  it('/login keeps what was typed before the script took over, and signs in with it', async () => {
    const container = document.createElement('div');
    container.innerHTML = await renderScreen('/login');
    document.body.append(container);
    // Typed into the prerendered inputs while the script was still loading.
    const typed = (placeholder: string, text: string) => {
      const input = container.querySelector<HTMLInputElement>(
        `input[placeholder="${placeholder}"]`,
      );
      input!.value = text;
    };
    typed('Username or Email', 'demo');
    typed('Password', 'Demo@12345');
    let sent: unknown;
    server.use(
      on('preLogin', async ({ request }) => {
        sent = await request.json();
        return ok('preLogin', { status: true, auth_type: 'mpin', token: 'step_x', msg: '' });
      }),
    );
    await hydrate(container, '/login');

    expect(screen.getByPlaceholderText('Username or Email')).toHaveValue('demo');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByLabelText('4 Digit Pin')).toBeInTheDocument();
    expect(sent).toEqual({ username: 'demo', password: 'Demo@12345' });
    expect(screen.queryByText('Username is required')).toBeNull();
  });

  it('/register keeps a terms box ticked before the script took over', async () => {
    const container = document.createElement('div');
    container.innerHTML = await renderScreen('/register');
    document.body.append(container);
    container.querySelector<HTMLInputElement>('input[name="is_checked"]')!.checked = true;
    await hydrate(container, '/register');

    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    // The empty fields are refused; the ticked box is not.
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.queryByText('Please Accept Terms & Condition')).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'I accept Terms & Conditions' })).toBeChecked();
  });

  it('/login shows the sign-in form before any script runs', async () => {
    document.body.innerHTML = await renderScreen('/login');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Username or Email')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Password')).toBeInTheDocument();
    // Disabled until hydrated: Enter or a click would send the password in a native GET's URL.
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  });
});
