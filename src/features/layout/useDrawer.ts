import { useCallback, useState } from 'react';

type Phase = 'closed' | 'open' | 'closing';

/**
 * The small-screen sidebar drawer: open or closed, and a toggle is ignored
 * while a close is still animating, so a quick double tap cannot reopen it half-way.
 */
export function useDrawer() {
  const [phase, setPhase] = useState<Phase>('closed');
  const toggle = useCallback(
    () =>
      setPhase((current) =>
        current === 'closing' ? current : current === 'open' ? 'closing' : 'open',
      ),
    [],
  );
  const close = useCallback(
    () => setPhase((current) => (current === 'open' ? 'closing' : current)),
    [],
  );
  /** The drawer's exit transition has finished. */
  const closed = useCallback(() => setPhase('closed'), []);
  return { open: phase === 'open', toggle, close, closed };
}
