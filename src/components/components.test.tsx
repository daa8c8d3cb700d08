import { render, screen, waitFor } from '@testing-library/react';
import { toast } from './toast';
import userEvent from '@testing-library/user-event';
import { CopyButton } from './CopyButton';
import { EmptyState } from './EmptyState';
import { Pagination } from './Pagination';
import { PasswordChecklist } from './PasswordChecklist';
import { Suspense } from 'react';
import { ErrorBoundary } from './ErrorBoundary';
import { lazyWithRetry } from './lazyWithRetry';
import { Toasts } from './Toasts';
import { TOAST_OPTIONS } from './toastify';
import { renderHook, act } from '@testing-library/react';
import { filters, useForm } from './form/useForm';

describe('Pagination', () => {
  test('shows the range, up to 3 links either side, first and last', async () => {
    const onPageChange = jest.fn();
    render(
      <Pagination
        meta={{ current_page: 5, last_page: 20, from: 41, to: 50, total: 195 }}
        onPageChange={onPageChange}
      />,
    );
    expect(screen.getByText('Showing 41 to 50 of 195 results')).toBeInTheDocument();
    const pages = screen.getAllByRole('button', { name: /^Page \d+$/ }).map((b) => b.textContent);
    expect(pages).toEqual(['2', '3', '4', '6', '7', '8']);
    expect(screen.getByText('5').closest('.active')).not.toBeNull();
    // The current page is named and marked for a screen reader, not a button.
    expect(screen.getByText('Page 5').closest('[aria-current="page"]')).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Page 8' }));
    await userEvent.click(screen.getByRole('button', { name: 'Last page' }));
    await userEvent.click(screen.getByRole('button', { name: 'First page' }));
    expect(onPageChange.mock.calls).toEqual([[8], [20], [1]]);
  });

  test('names an end already reached in hidden text, not a button', () => {
    render(
      <Pagination
        meta={{ current_page: 1, last_page: 3, from: 1, to: 10, total: 25 }}
        onPageChange={jest.fn()}
      />,
    );
    expect(screen.queryByRole('button', { name: 'First page' })).not.toBeInTheDocument();
    expect(screen.getByText('First page')).toHaveClass('visually-hidden');
    expect(screen.getByRole('button', { name: 'Last page' })).toBeInTheDocument();
  });

  test('renders nothing for an empty list', () => {
    const { container } = render(
      <Pagination
        meta={{ current_page: 1, last_page: 1, from: null, to: null, total: 0 }}
        onPageChange={jest.fn()}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

test('the empty state reads No record Found, in a table too', () => {
  render(
    <>
      <EmptyState />
      <table>
        <tbody>
          <EmptyState colSpan={4} />
        </tbody>
      </table>
    </>,
  );
  expect(screen.getAllByText('No record Found')).toHaveLength(2);
  expect(screen.getAllByText('No record Found')[1]).toHaveAttribute('colspan', '4');
});

test('copy writes to the clipboard and toasts, by default Copied Successfully', async () => {
  const user = userEvent.setup();
  const write = jest.spyOn(navigator.clipboard, 'writeText');
  render(
    <>
      <CopyButton value="demo@example.com" label="Copy email" />
      <CopyButton value="KEY" label="Copy key" successText="Key Copied Succefully" />
      <Toasts />
    </>,
  );
  await user.click(screen.getByRole('button', { name: 'Copy email' }));
  expect(await screen.findByText('Copied Successfully')).toBeInTheDocument();
  expect(write).toHaveBeenCalledWith('demo@example.com');
  await user.click(screen.getByRole('button', { name: 'Copy key' }));
  expect(await screen.findByText('Key Copied Succefully')).toBeInTheDocument();
});

test('toasts: top right under the header, 4000 ms, in the portal colours', () => {
  expect(TOAST_OPTIONS).toMatchObject({
    position: 'top-right',
    autoClose: 4000,
    theme: 'colored',
    className: 'app-toasts',
  });
});

test("one toast on screen: the next action's replaces it at once", async () => {
  const user = userEvent.setup();
  render(
    <>
      <CopyButton value="KEY" label="Copy key" successText="Key Copied Succefully" />
      <button type="button" onClick={() => toast.success('App updated.')}>
        Save
      </button>
      <Toasts />
    </>,
  );
  await user.click(screen.getByRole('button', { name: 'Copy key' }));
  const copied = await screen.findByText('Key Copied Succefully');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  // No wait for the first one to time out: the save is confirmed now, the copy toast leaves.
  const saved = await screen.findByText('App updated.');
  const toastOf = (text: HTMLElement) => text.closest('.Toastify__toast');
  expect(toastOf(saved)).toHaveClass('Toastify__toast--success', 'Toastify__toast-theme--colored');
  expect(saved.closest('.Toastify__toast-container')).toHaveClass('app-toasts');
  await waitFor(() => expect(toastOf(copied)?.className).toMatch(/exit/));
});

describe('useForm', () => {
  test('filters input, caps length, and clears a field error on edit', () => {
    const { result } = renderHook(() =>
      useForm(
        { name: '', pin: '' },
        { filters: { name: filters.letters, pin: filters.digits }, maxLength: { pin: 4 } },
      ),
    );
    act(() => result.current.setErrors({ name: 'Name is required', pin: 'x' }));
    act(() => result.current.setField('name', 'Ann3 Lee!'));
    act(() => result.current.setField('pin', '12a345'));
    expect(result.current.values).toEqual({ name: 'Ann Lee', pin: '1234' });
    expect(result.current.errors).toEqual({});
  });

  test('server field errors land on their fields', () => {
    const { result } = renderHook(() => useForm({ email: '' }));
    act(() =>
      result.current.applyServerErrors({
        kind: 'failure',
        status: 422,
        message: 'x',
        fieldErrors: { email: ['The email has already been taken.'], other: ['ignored'] },
      }),
    );
    expect(result.current.errors).toEqual({ email: 'The email has already been taken.' });
  });

  test('the spec filters', () => {
    expect(filters.digitsPlus('+91 98-76')).toBe('+919876');
    expect(filters.email('a b@c.d!')).toBe('ab@c.d');
  });
});

describe('Toasts', () => {
  test('the first toast loads the library, mounts the container and shows the message, also under StrictMode', async () => {
    await jest.isolateModulesAsync(async () => {
      // Fresh copies (React and Testing Library too, so they match): nothing loaded yet, as on a
      // first visit to /login.
      const { StrictMode } = await import('react');
      const { render, screen, act } = await import('@testing-library/react/pure');
      const { Toasts: FreshToasts } = await import('./Toasts');
      const { toast, loadedToastify } = await import('./toast');
      const { container, unmount } = render(
        <StrictMode>
          <FreshToasts autoClose={false} />
        </StrictMode>,
      );
      expect(loadedToastify()).toBeNull();
      expect(container).toBeEmptyDOMElement();

      act(() => toast.error('Request failed please try again'));
      expect(await screen.findByText('Request failed please try again')).toBeInTheDocument();
      act(() => toast.success('Copied Successfully'));
      expect(await screen.findByText('Copied Successfully')).toBeInTheDocument();
      unmount();
    });
  });

  test('prefetched once the first screen is idle, an offline toast needs no network', async () => {
    await jest.isolateModulesAsync(async () => {
      let loads = 0;
      jest.doMock('./toastify', () => {
        loads += 1;
        return jest.requireActual<typeof import('./toastify')>('./toastify');
      });
      const idle: (() => void)[] = [];
      window.requestIdleCallback = (callback) => idle.push(() => callback({} as IdleDeadline));
      const { render, screen, act, waitFor } = await import('@testing-library/react/pure');
      const { Toasts: FreshToasts } = await import('./Toasts');
      const { toast, prefetchToastify, loadedToastify } = await import('./toast');
      const { unmount } = render(<FreshToasts autoClose={false} />);
      prefetchToastify();
      expect(loadedToastify()).toBeNull();
      idle.forEach((run) => run());
      await waitFor(() => expect(loadedToastify()).not.toBeNull());

      act(() => toast.error('You are offline. Please check your connection.'));
      expect(
        await screen.findByText('You are offline. Please check your connection.'),
      ).toBeInTheDocument();
      expect(loads).toBe(1);
      unmount();
      jest.dontMock('./toastify');
      Reflect.deleteProperty(window, 'requestIdleCallback');
    });
  });

  test('a toast whose library cannot load is dropped, and the next toast loads it again', async () => {
    await jest.isolateModulesAsync(async () => {
      let attempts = 0;
      jest.doMock('./toastify', () => {
        attempts += 1;
        if (attempts === 1) throw new Error('Loading chunk toasts failed.');
        return jest.requireActual<typeof import('./toastify')>('./toastify');
      });
      const { render, screen, act, waitFor } = await import('@testing-library/react/pure');
      const { Toasts: FreshToasts } = await import('./Toasts');
      const { toast, loadedToastify } = await import('./toast');
      const { unmount } = render(<FreshToasts autoClose={false} />);

      act(() => toast.error('Network Error'));
      await waitFor(() => expect(attempts).toBe(1));
      expect(loadedToastify()).toBeNull();

      act(() => toast.error('Session timed out due to inactivity. Please sign in again.'));
      expect(
        await screen.findByText('Session timed out due to inactivity. Please sign in again.'),
      ).toBeInTheDocument();
      expect(screen.queryByText('Network Error')).not.toBeInTheDocument();
      unmount();
      jest.dontMock('./toastify');
    });
  });
});

describe('lazyWithRetry', () => {
  test('a chunk that failed to load is fetched again once the boundary resets', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let online = false;
    const Page = lazyWithRetry(async () => {
      if (!online) throw new Error('Loading chunk wallet failed.');
      return { default: () => <p>Wallet</p> };
    });
    const ui = (key: string) => (
      <ErrorBoundary resetKey={key} fallback={(e) => <p>{(e as Error).message}</p>}>
        <Suspense fallback={null}>
          <Page />
        </Suspense>
      </ErrorBoundary>
    );
    const { rerender } = render(ui('/app/wallet'));
    expect(await screen.findByText('Loading chunk wallet failed.')).toBeInTheDocument();
    online = true;
    rerender(ui('/app/dashboard'));
    expect(await screen.findByText('Wallet')).toBeInTheDocument();
    error.mockRestore();
  });

  test('a preloaded screen draws at once, without its fallback', async () => {
    const Page = lazyWithRetry(async () => ({ default: () => <p>Wallet</p> }));
    await Page.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page />
      </Suspense>,
    );
    // Not findByText: the first render already shows it.
    expect(screen.getByText('Wallet')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });
});

describe('PasswordChecklist', () => {
  test.each([
    ['', 0],
    ['a', 1],
    ['aB', 2],
    ['aB3', 3],
    ['aB3$', 4],
    ['aB3$efgh', 5],
  ])('%j meets %i rules', (password, met) => {
    render(<PasswordChecklist password={password} />);
    expect(screen.queryAllByText(/\(done\)/)).toHaveLength(met);
    expect(screen.queryAllByText(/\(missing\)/)).toHaveLength(5 - met);
  });
});
