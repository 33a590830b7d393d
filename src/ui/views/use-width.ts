/**
 * The pixel width of an element, kept up to date with a ResizeObserver, so a chart can draw its
 * viewBox at 1:1 and its text stays at the intended size in narrow panels. Server rendering and the
 * first client render use `fallback`.
 */
import { type RefObject, useEffect, useRef, useState } from 'react';

export function useWidth<T extends HTMLElement>(fallback: number): [RefObject<T | null>, number] {
  const ref = useRef<T | null>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => {
      const w = Math.round(el.clientWidth);
      if (w > 0) setWidth((old) => (Math.abs(old - w) >= 2 ? w : old));
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}
