/**
 * Space a view keeps while a tour runs (#13): the tallest a part of it has been since the tour
 * started, as its min-height, so flipping between a tour's steps (LPM's totals table, DLPM's deficit
 * bars and bound gauge) does not move what is drawn below it. Grow-only under one key (the tour id);
 * another key (another tour, or none: null) or a new width starts again from the part's own height.
 * The heights live outside the components, since a step's load may remount the views.
 */
import { type CSSProperties, type RefObject, useLayoutEffect, useRef, useState } from 'react';

const kept: { key: string | null; slots: Map<string, { width: number; height: number }> } = {
  key: null,
  slots: new Map(),
};

function slotOf(key: string, slot: string) {
  if (kept.key !== key) {
    kept.key = key;
    kept.slots = new Map();
  }
  return kept.slots.get(slot);
}

export function useReserve<T extends HTMLElement>(
  key: string | null,
  slot: string,
): [RefObject<T | null>, CSSProperties | undefined] {
  const ref = useRef<T | null>(null);
  const [, redraw] = useState(0);
  const observed = useRef<{ el: T; ro: ResizeObserver } | null>(null);
  // after every render: observe the element now drawn (a remount gives a new one)
  useLayoutEffect(() => {
    const el = key === null ? null : ref.current;
    if (observed.current?.el === el) return;
    observed.current?.ro.disconnect();
    observed.current = null;
    if (!el || key === null || typeof ResizeObserver === 'undefined') return;
    const update = () => {
      const box = el.getBoundingClientRect();
      if (box.width === 0) return;
      const old = slotOf(key, slot);
      if (!old || Math.abs(old.width - box.width) > 1) {
        kept.slots.set(slot, { width: box.width, height: box.height });
        redraw((n) => n + 1);
      } else if (box.height > old.height + 0.5) {
        old.height = box.height;
        redraw((n) => n + 1);
      }
    };
    const ro = new ResizeObserver(update);
    ro.observe(el);
    observed.current = { el, ro };
    update();
  });
  useLayoutEffect(() => () => observed.current?.ro.disconnect(), []);
  const have = key !== null && kept.key === key ? kept.slots.get(slot) : undefined;
  return [ref, have ? { minHeight: `${Math.round(have.height)}px` } : undefined];
}
