/**
 * The pixel width of an element, kept up to date with a ResizeObserver, so a chart can draw its
 * viewBox at 1:1 and its text stays at the intended size in narrow panels. Server rendering and the
 * first client render use `fallback`.
 */
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';

export function useWidth<T extends HTMLElement>(fallback: number): [RefObject<T | null>, number] {
  const ref = useRef<T | null>(null);
  const [width, setWidth] = useState(fallback);
  // measured before the first paint, so a chart never shows a frame drawn at the fallback width
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    // Whole pixels rounded down, and a narrower box always taken: a viewBox never wider than the
    // drawn box, so the chart's scale is never below 1 (at 439.5 px a viewBox of 440 drew 18 px text
    // at 17.98 px); a wider box is taken from 2 px on, so a sub-pixel wobble does not redraw.
    const update = () => {
      const w = Math.floor(el.getBoundingClientRect().width - (el.offsetWidth - el.clientWidth));
      if (w > 0) setWidth((old) => (w < old || w - old >= 2 ? w : old));
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}
