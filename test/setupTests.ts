import '@testing-library/jest-dom';
import { File as NodeFile } from 'node:buffer';
import { server } from './msw/server';

// jsdom's File is not a Blob of the fetch/FormData realm jest-fixed-jsdom installs: use Node's,
// as a browser has one realm for all three.
globalThis.File = NodeFile as unknown as typeof File;
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  document.cookie.split('; ').forEach((cookie) => {
    const name = cookie.split('=')[0];
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });
});
afterAll(() => server.close());
