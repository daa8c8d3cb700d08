import '@testing-library/jest-dom';
import { File as NodeFile } from 'node:buffer';
import { server } from './msw/server';
import { loadToastify } from '../src/components/toast';

// jsdom's File is not a Blob of the fetch/FormData realm jest-fixed-jsdom installs: use Node's,
// as a browser has one realm for all three.
globalThis.File = NodeFile as unknown as typeof File;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // Toasts then show synchronously, as in the browser after the first one (src/components/toast).
  await loadToastify();
});
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  document.cookie.split('; ').forEach((cookie) => {
    const name = cookie.split('=')[0];
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });
});
afterAll(() => server.close());
