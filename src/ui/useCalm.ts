/**
 * Reads a store value for heavy views without letting them dictate the frame rate: while playing, the
 * value reaches the view at most every `intervalMs`, and the render runs as a transition (React time-
 * slices it, so the main thread never blocks for long). When paused, changes show at once.
 */
import { startTransition, useEffect, useState } from 'react';
import { type UiState, useUi } from '../state/store';

export const CALM_INTERVAL_MS = 150;
/** At fast speeds (from 250 decisions/s) the views refresh less often still. */
export const FAST_INTERVAL_MS = 300;
const FAST_SPEED_INDEX = 7;

export function useCalm<T>(select: (s: UiState) => T, intervalMs = CALM_INTERVAL_MS): T {
  const [value, setValue] = useState(() => select(useUi.getState()));
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: T | undefined;
    let has = false;
    const flush = () => {
      timer = undefined;
      if (!has) return;
      has = false;
      last = performance.now();
      const v = pending as T;
      startTransition(() => setValue(() => v));
    };
    const unsub = useUi.subscribe((s, prev) => {
      const next = select(s);
      if (next === select(prev)) return;
      pending = next;
      has = true;
      if (!s.playing) {
        clearTimeout(timer);
        flush();
        return;
      }
      const every = s.speedIndex >= FAST_SPEED_INDEX ? Math.max(intervalMs, FAST_INTERVAL_MS) : intervalMs;
      if (timer === undefined) timer = setTimeout(flush, Math.max(0, last + every - performance.now()));
    });
    setValue(() => select(useUi.getState()));
    return () => {
      unsub();
      clearTimeout(timer);
    };
  }, [select, intervalMs]);
  return value;
}
