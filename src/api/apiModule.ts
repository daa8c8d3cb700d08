/**
 * What the store adds once the API has loaded (src/app/store.ts): the API itself and RTK Query's
 * focus and online listeners. Imported from the store, even setupListeners would bring RTK
 * Query's whole module into what /login loads.
 */
export { baseApi } from './baseApi';
export { setupListeners } from '@reduxjs/toolkit/query';
