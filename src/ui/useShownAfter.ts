import { useEffect, useState } from 'react';

/** A seek shorter than this shows no hint, and the timeline no replay (ms). */
export const SEEK_HINT_DELAY_MS = 300;

/**
 * True once `ms` have passed since `since` (performance.now()); false while `since` is null. The
 * seeking hint and the timeline use it so that a seek too short to notice changes nothing on screen.
 */
export function useShownAfter(since: number | null, ms: number): boolean {
  const [, tick] = useState(0);
  useEffect(() => {
    if (since === null) return;
    const left = since + ms - performance.now();
    if (left <= 0) return;
    const id = setTimeout(() => tick((x) => x + 1), left);
    return () => clearTimeout(id);
  }, [since, ms]);
  return since !== null && performance.now() - since >= ms;
}
