import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { File as NodeFile } from 'node:buffer';
import { server } from './msw/server';
import { loadToastify } from '../src/components/toast';
import { changeLanguage, loadPortalCatalogue } from '../src/i18n/language';

// jsdom's File is not a Blob of the fetch/FormData realm jest-fixed-jsdom installs: use Node's,
// as a browser has one realm for all three.
globalThis.File = NodeFile as unknown as typeof File;
// waitFor/findBy* wait on a condition: give it room on a busy machine (the first render of a
// file loads its lazy screens through Jest's transform, which took over RTL's default 1 s in a
// full run beside two workers). A passing condition still returns at once.
configure({ asyncUtilTimeout: 5_000 });
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // Toasts then show synchronously, as in the browser after the first one (src/components/toast).
  await loadToastify();
  // The signed-in screens' catalogue, as their layout loads it: a test may draw one part alone.
  await loadPortalCatalogue();
});
afterEach(async () => {
  // Every test starts in English, whatever the one before chose.
  await changeLanguage('en');
  server.resetHandlers();
  localStorage.clear();
  document.cookie.split('; ').forEach((cookie) => {
    const name = cookie.split('=')[0];
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });
});
afterAll(() => server.close());
