import { act, render, screen, waitFor } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { explainsOwnFailure } from '../app/middleware/apiFeedback';
import { makeStore } from '../app/store';
import * as apiModule from './apiModule';
import { Toasts } from '../components/Toasts';
import { stepOnePassed } from '../app/session/signInSlice';
import { initialSessionState } from '../app/session/sessionSlice';
import { refuse, server } from '../../test/msw/server';
import { fail, ok, on, urlOf } from '../../test/msw/contract';
import { fixtures as appFixtures } from '../../test/factories/apps';
import { fixtures as walletFixtures } from '../../test/factories/wallet';
import { authApi } from './generated/auth.gen';
import { appsApi } from './generated/apps.gen';
import { walletApi } from './generated/wallet.gen';
import { profileApi } from './generated/profile.gen';
import { subscriptionsApi } from './generated/subscriptions.gen';

function signedInStore() {
  const onSessionEnd = jest.fn();
  const store = makeStore({
    preloadedState: {
      session: {
        ...initialSessionState,
        authToken: 'sess_abc',
        username: 'demo',
        _persist: { version: 1, rehydrated: true },
      } as never,
    },
    onSessionEnd,
    api: apiModule,
  });
  return { store, onSessionEnd };
}

// The toast container, mounted before each rule runs (it reports itself ready a tick later).
// The rules drive the store directly, not React: the toasts they raise are read from the DOM
// with findBy*, so React's act() environment (and its warnings) does not apply to them.
beforeEach(async () => {
  render(<Toasts />);
  await act(() => new Promise((resolve) => setTimeout(resolve)));
  Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', false);
});

describe('the shared request rules', () => {
  test('sends the session bearer, credentials and the XSRF pair', async () => {
    document.cookie = 'XSRF-TOKEN=xsrf%3D1';
    let seen: Request | undefined;
    server.use(
      on('getBalance', ({ request }) => {
        seen = request;
        return ok('getBalance', walletFixtures.getBalance);
      }),
    );
    const { store } = signedInStore();
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(seen?.headers.get('authorization')).toBe('Bearer sess_abc');
    expect(seen?.headers.get('x-xsrf-token')).toBe('xsrf=1');
    expect(seen?.credentials).toBe('include');
  });

  test('login carries the step token, never the session token', async () => {
    let auth: string | null = null;
    server.use(
      on('login', ({ request }) => {
        auth = request.headers.get('authorization');
        return fail('login', 422, 'The code is wrong.', { mpin: ['The code is wrong.'] });
      }),
    );
    const { store } = signedInStore();
    store.dispatch(stepOnePassed({ stepToken: 'step_xyz', authType: 'mpin', username: 'demo' }));
    await store.dispatch(
      authApi.endpoints.login.initiate({
        loginRequest: { username: 'demo', password: 'Demo@12345', mpin: '1111' },
      }),
    );
    expect(auth).toBe('Bearer step_xyz');
    expect(await screen.findByText('The code is wrong.')).toBeInTheDocument();
    expect(store.getState().session.authToken).toBe('sess_abc');
  });

  test('a new JSON POST aborts the one in flight with the same path key', async () => {
    let calls = 0;
    server.use(
      on('createApp', async () => {
        calls += 1;
        const call = calls;
        await delay(call === 1 ? 200 : 10);
        return ok('createApp', {
          status: true,
          msg: `created ${call}`,
          data: appFixtures.getApps.data,
          app: appFixtures.getApps.data[0]!,
        });
      }),
    );
    const { store } = signedInStore();
    const body = { createAppRequest: { app_name: 'A', project_url: 'https://a.example' } };
    const first = store.dispatch(appsApi.endpoints.createApp.initiate(body));
    await delay(20);
    const second = store.dispatch(appsApi.endpoints.createApp.initiate(body));
    const [a, b] = await Promise.all([first, second]);
    expect(a.error).toMatchObject({ kind: 'aborted' });
    expect(b.data?.msg).toBe('created 2');
    expect(await screen.findByText('created 2')).toBeInTheDocument();
    expect(screen.queryByText('Request aborted')).not.toBeInTheDocument();
  });

  test('offline: no request is made and the offline toast shows', async () => {
    const online = jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let called = false;
    server.use(
      on('getBalance', () => {
        called = true;
        return ok('getBalance', walletFixtures.getBalance);
      }),
    );
    const { store } = signedInStore();
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(called).toBe(false);
    expect(
      await screen.findByText('You are offline. Please check your connection.'),
    ).toBeInTheDocument();
    online.mockRestore();
  });

  test('401 ends the session: toast, cleared session and cache, back to /', async () => {
    server.use(on('getBalance', () => fail('getBalance', 401, 'Unauthenticated.')));
    const { store, onSessionEnd } = signedInStore();
    await store.dispatch(appsApi.endpoints.getApps.initiate());
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(
      await screen.findByText('Session timed out due to inactivity. Please sign in again.'),
    ).toBeInTheDocument();
    expect(store.getState().session.authToken).toBe('');
    expect(store.getState().api?.queries).toEqual({});
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
  });

  test('a request the screen explains gets no error toast, but a 401 still ends the session', async () => {
    server.use(
      on('getBalance', () => fail('getBalance', 429, 'Balance unavailable.')),
      on('getApps', () => fail('getApps', 401, 'Unauthenticated.')),
    );
    const { store, onSessionEnd } = signedInStore();
    await explainsOwnFailure(store.dispatch(walletApi.endpoints.getBalance.initiate()));
    expect(screen.queryByText('Balance unavailable.')).not.toBeInTheDocument();
    // The same failure, not explained by a screen, is toasted.
    await store.dispatch(
      walletApi.endpoints.getBalance.initiate(undefined, { forceRefetch: true }),
    );
    expect(await screen.findByText('Balance unavailable.')).toBeInTheDocument();

    await explainsOwnFailure(store.dispatch(appsApi.endpoints.getApps.initiate()));
    expect(
      await screen.findByText('Session timed out due to inactivity. Please sign in again.'),
    ).toBeInTheDocument();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
  });

  test('a connectivity failure shows Network Error and ends the session', async () => {
    server.use(http.get(urlOf('getBalance'), () => HttpResponse.error()));
    const { store, onSessionEnd } = signedInStore();
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(await screen.findByText('Network Error')).toBeInTheDocument();
    expect(store.getState().session.authToken).toBe('');
    expect(onSessionEnd).toHaveBeenCalled();
  });

  test('status false in a 2xx body: the first message of the first errors entry', async () => {
    server.use(
      http.post(urlOf('purchasePackage'), () =>
        HttpResponse.json({
          status: 0,
          msg: 'Could not buy',
          errors: { package_id: ['Please select your plan first'], remarks: ['second'] },
        }),
      ),
    );
    const { store, onSessionEnd } = signedInStore();
    const result = await store.dispatch(
      subscriptionsApi.endpoints.purchasePackage.initiate({
        purchaseRequest: { package_id: 'pkg_1' },
      }),
    );
    expect(result.error).toMatchObject({
      kind: 'failure',
      message: 'Please select your plan first',
    });
    expect(await screen.findByText('Please select your plan first')).toBeInTheDocument();
    expect(onSessionEnd).not.toHaveBeenCalled();
  });

  test('status false without errors: msg', async () => {
    server.use(
      http.get(urlOf('getBalance'), () =>
        HttpResponse.json({ status: false, msg: 'Wallet locked' }),
      ),
    );
    const { store } = signedInStore();
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(await screen.findByText('Wallet locked')).toBeInTheDocument();
  });

  test('a 4xx envelope shows its first field message', async () => {
    refuse('register', 422, 'The given data was invalid.', {
      email: ['The email has already been taken.'],
    });
    const { store } = signedInStore();
    const result = await store.dispatch(
      authApi.endpoints.register.initiate({
        registerRequest: {
          name: 'A',
          username: 'abc',
          email: 'a@b.co',
          password: 'Aa1!aaaa',
          spassword: '1234',
          country: 'IN',
          phone: '1234567',
          is_checked: 1,
        },
      }),
    );
    expect(result.error).toMatchObject({
      status: 422,
      fieldErrors: { email: ['The email has already been taken.'] },
    });
    expect(await screen.findByText('The email has already been taken.')).toBeInTheDocument();
  });

  test('any other failure shows the error’s own message', async () => {
    server.use(http.get(urlOf('getBalance'), () => new HttpResponse('boom', { status: 502 })));
    const { store } = signedInStore();
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(await screen.findByText('Request failed with status code 502')).toBeInTheDocument();
  });

  test('an unexpected failure shows its own text (an unreadable JSON answer)', async () => {
    server.use(
      http.get(
        urlOf('getBalance'),
        () => new HttpResponse('{not json', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const { store } = signedInStore();
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(await screen.findByText(/SyntaxError/)).toBeInTheDocument();
  });

  test('a write toasts the server msg; a read does not', async () => {
    server.use(
      on('syncBalance', () =>
        ok('syncBalance', { status: true, balance: 1, is_new: false, msg: 'No new deposit' }),
      ),
      on('logout', () => ok('logout', { status: true, msg: 'Logged out successfully' })),
    );
    const { store } = signedInStore();
    await store.dispatch(walletApi.endpoints.syncBalance.initiate());
    await store.dispatch(authApi.endpoints.logout.initiate());
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(screen.queryByText('No new deposit')).not.toBeInTheDocument();
  });

  test('file fields go out as multipart form data', async () => {
    let contentType = '';
    let photo: FormDataEntryValue | null = null;
    server.use(
      on('changePicture', async ({ request }) => {
        contentType = request.headers.get('content-type') ?? '';
        photo = (await request.formData()).get('photo');
        return ok('changePicture', { status: true, msg: 'Updated', avatar: 'abc.png' });
      }),
    );
    const { store } = signedInStore();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
    const result = await store.dispatch(
      profileApi.endpoints.changePicture.initiate({ changePictureRequest: { photo: file } }),
    );
    expect(result.error).toBeUndefined();
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(photo).toBeInstanceOf(File);
  });

  test('waits for nothing when a request succeeds quietly', async () => {
    const { store } = signedInStore();
    const result = await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(result.data?.data.payInBalance).toBe(125.5);
    await waitFor(() => expect(document.querySelector('.Toastify__toast')).toBeNull());
  });
});
