import { use } from 'react';
import { Outlet } from 'react-router-dom';
import { useAppStore } from './hooks';

/**
 * The routes under it use RTK Query's hooks: they render once the API is in the store (its chunk
 * is not part of what /login loads); until then the nearest Suspense shows its fallback.
 */
export function ApiReady() {
  const { apiLoader } = useAppStore();
  if (!apiLoader.api) use(apiLoader.ready());
  return <Outlet />;
}
