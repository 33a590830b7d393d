/**
 * Click-to-seek on time charts: the app provides what a click at simulated time t should do (seek the
 * run there) and every chart inside picks it up with `useTimeSeek`. Without a provider (tests,
 * exports) charts stay plain pictures. The Timeline slider is the keyboard path to the same seek.
 */
import { createContext, type MutableRefObject, useContext, useRef, useState } from 'react';

export type SeekToTime = (simTimeS: number) => void;

export const TimeSeekContext = createContext<SeekToTime | null>(null);

export interface PlotArea {
  /** Simulated time → x, and back. */
  x: { (t: number): number; invert(px: number): number };
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** The SVG's viewBox width (the SVG may be drawn scaled to its box). */
  width: number;
}

export interface SeekParts {
  /** Handlers to spread on the chart's <svg> (pointer events bubble up from every mark). */
  svgProps: React.SVGProps<SVGSVGElement>;
  /** The line and time label under the pointer: draw it last. */
  guide: React.ReactNode;
}

/**
 * Call at the top of a chart component (it holds the pointer position); then, once the plot area is
 * known, call the function it returns for what to draw. The handlers sit on the whole <svg>, so
 * marks keep their own tooltips while a click anywhere in the plot area seeks. Without a provider
 * the chart is a plain picture.
 */
export function useTimeSeek(): (a: PlotArea) => SeekParts {
  const seekTo = useContext(TimeSeekContext);
  const [hoverX, setHoverX] = useState<number | null>(null);
  const pointer = useRef<ClientPoint | null>(null);
  // the time label's width as last drawn (its text barely changes from one pointer move to the next)
  const labelWidth = useRef(0);
  return (a) => seekParts(a, seekTo, hoverX, setHoverX, pointer, labelWidth);
}

/** A label's left edge: beside x on the side it fits (right first), else pushed inside [0, width]. */
export function labelLeft(x: number, labelW: number, width: number, gap = 4, margin = 2): number {
  if (x + gap + labelW <= width - margin) return x + gap;
  if (x - gap - labelW >= margin) return x - gap - labelW;
  return Math.max(margin, Math.min(width - margin - labelW, x + gap));
}

export interface ClientPoint {
  x: number;
  y: number;
}

/**
 * Where a click happened, at the precision the guide was drawn with. Pointer events carry fractional
 * client coordinates, but a click's `clientX`/`clientY` are whole pixels (Chromium), so on a chart a
 * few hundred pixels wide a click read alone lands up to a pixel (tens of simulated milliseconds)
 * before the time its guide showed. When the last pointer position is the click's own spot (within
 * the rounding), that position is the click's; otherwise (no pointer event came first) the click's.
 */
export function clickPoint(lastPointer: ClientPoint | null, click: ClientPoint): ClientPoint {
  if (lastPointer && Math.abs(lastPointer.x - click.x) < 1 && Math.abs(lastPointer.y - click.y) < 1)
    return lastPointer;
  return click;
}

function seekParts(
  a: PlotArea,
  seekTo: SeekToTime | null,
  hoverX: number | null,
  setHoverX: (x: number | null) => void,
  pointer: MutableRefObject<ClientPoint | null>,
  labelWidth: MutableRefObject<number>,
): SeekParts {
  if (!seekTo) return { svgProps: {}, guide: null };
  /** A client point's x in the SVG's own coordinates, or null outside the plot area. */
  const plotX = (svg: SVGSVGElement, p: ClientPoint): number | null => {
    const box = svg.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return null;
    const px = ((p.x - box.left) * a.width) / box.width;
    const py = ((p.y - box.top) * a.width) / box.width;
    if (px < a.x0 || px > a.x1 || py < a.y1 || py > a.y0) return null;
    return px;
  };
  const track = (e: React.PointerEvent<SVGSVGElement>) => {
    pointer.current = { x: e.clientX, y: e.clientY };
    setHoverX(plotX(e.currentTarget, pointer.current));
  };
  const svgProps: React.SVGProps<SVGSVGElement> = {
    className: 'seekable',
    onPointerMove: track,
    onPointerDown: track,
    onPointerLeave: () => {
      pointer.current = null;
      setHoverX(null);
    },
    onClick: (e) => {
      // the time the guide shows under the pointer, not the click's whole-pixel rounding of it
      const px = plotX(e.currentTarget, clickPoint(pointer.current, { x: e.clientX, y: e.clientY }));
      if (px !== null) seekTo(a.x.invert(px));
    },
  };
  if (hoverX === null) return { svgProps, guide: null };
  // The label stays inside the chart's own box (and so inside its card, #13): beside the guide on
  // the side it fits, else pushed in from the edge; a chart narrower than the label gets it on two
  // lines. Widths are measured after drawing (before the first, estimated at 0.6 em per character).
  const time = `t = ${a.x.invert(hoverX).toFixed(2)} s`;
  const seek = 'click to seek';
  const oneLine = `${time} · ${seek}`;
  const measured = labelWidth.current > 0 ? labelWidth.current : oneLine.length * 14 * 0.6;
  const perChar = measured / oneLine.length;
  const twoLines = measured > a.width - 4;
  const w = twoLines ? Math.max(time.length, seek.length) * perChar : measured;
  const left = labelLeft(hoverX, w, a.width);
  const remember = (el: SVGTextElement | null) => {
    if (el && !twoLines) labelWidth.current = el.getComputedTextLength();
  };
  const guide = (
    <g className="seek-guide">
      <line x1={hoverX} x2={hoverX} y1={a.y1} y2={a.y0} />
      {twoLines ? (
        <text x={left} y={a.y1 + 10} textAnchor="start" data-lines="2">
          <tspan x={left}>{time}</tspan>
          <tspan x={left} dy="1.2em">
            {seek}
          </tspan>
        </text>
      ) : (
        <text ref={remember} x={left} y={a.y1 + 10} textAnchor="start">
          {oneLine}
        </text>
      )}
    </g>
  );
  return { svgProps, guide };
}
