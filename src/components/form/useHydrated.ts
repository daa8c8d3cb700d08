import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in the build's prerendered markup and while React hydrates it, true from the render after.
 * A prerendered form keeps its submit button disabled until then: submitted before the script
 * has taken it over, the browser would send it natively, as a GET with the password in the URL
 * (a disabled default button also stops Enter from submitting).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
