/**
 * Downloads without a network: text through a Blob and an `<a download>`, a chart's <svg> serialised
 * with its computed colours and fonts inlined (CSS variables do not travel with the file), and the
 * same SVG drawn into a canvas for a PNG.
 */
import { cssColor, over, parseColor, type Rgba, readableOn, WHITE } from './contrast';

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(text: string, filename: string, type: string): void {
  downloadBlob(new Blob([text], { type }), filename);
}

/** Paint properties copied from the live document into the exported SVG. */
const PAINT = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linejoin',
  // a label's halo is its stroke painted under the fill: without this the stroke covers the glyphs
  'paint-order',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'color',
  'visibility',
] as const;

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The heading an exported chart carries above the drawing: what it shows, and of which run when. */
export interface ChartHeading {
  /** The view and chart, e.g. "Workers — Prefix tree of worker 0". */
  title: string;
  /** The scenario and the moment, e.g. "Default · t = 12.4 s, decision 3 456". */
  caption: string;
}

/**
 * A standalone SVG document of a rendered <svg>: computed paint inlined, size fixed, background
 * filled, every label readable at WCAG AA on the fill drawn under it (`readableOn`), and with
 * `heading` a title band above the drawing.
 */
export function serializeSvg(
  svg: SVGSVGElement,
  heading?: ChartHeading,
): { text: string; width: number; height: number } {
  const box = svg.getBoundingClientRect();
  const width = Math.max(1, Math.round(box.width));
  const chartH = Math.max(1, Math.round(box.height));
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll<SVGElement>('*')];
  const to = [clone, ...clone.querySelectorAll<SVGElement>('*')];
  const bgText = getComputedStyle(document.body).backgroundColor || '#ffffff';
  const bg = over(parseColor(bgText) ?? WHITE, WHITE);
  const fixes = readableLabels(from, bg);
  from.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const style = PAINT.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
    const fix = fixes.get(el);
    // a recoloured label loses its halo, drawn for the colour it had
    to[i].setAttribute('style', fix ? `${style};fill:${fix};fill-opacity:1;stroke:none` : style);
  });
  // drawn as the key below the heading instead (its colours are the page's CSS variables)
  clone.removeAttribute('data-legend');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(chartH));
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${width} ${chartH}`);
  underCanvases(svg, clone, box);
  const band = heading ? headingBand(heading, width) : null;
  const key = legendBand(svg, width, band?.height ?? 0);
  const top = (band?.height ?? 0) + (key?.height ?? 0);
  const height = chartH + top;
  let doc: SVGSVGElement = clone;
  if (band || key) {
    doc = document.createElementNS(SVG_NS, 'svg');
    doc.setAttribute('width', String(width));
    doc.setAttribute('height', String(height));
    doc.setAttribute('viewBox', `0 0 ${width} ${height}`);
    if (band) doc.append(...band.nodes);
    if (key) doc.append(...key.nodes);
    clone.setAttribute('x', '0');
    clone.setAttribute('y', String(top));
    doc.append(clone);
  }
  doc.setAttribute('xmlns', SVG_NS);
  const rect = document.createElementNS(SVG_NS, 'rect');
  rect.setAttribute('width', '100%');
  rect.setAttribute('height', '100%');
  rect.setAttribute('fill', bgText);
  doc.insertBefore(rect, doc.firstChild);
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}\n`;
  return { text, width, height };
}

/**
 * What a chart draws on a canvas under its <svg> (a time chart's lines once they pass a few thousand
 * points: the svg keeps only the axes), copied into the exported drawing as an image below the svg's
 * own content, at the canvas's place. Without it such a chart exported as empty axes.
 */
function underCanvases(svg: SVGSVGElement, clone: SVGSVGElement, box: DOMRect): void {
  const holder = svg.parentElement;
  if (!holder || box.width <= 0 || box.height <= 0) return;
  const vb = clone.viewBox.baseVal;
  const sx = vb && vb.width > 0 ? vb.width / box.width : 1;
  const sy = vb && vb.height > 0 ? vb.height / box.height : 1;
  const images: SVGImageElement[] = [];
  for (const canvas of holder.querySelectorAll<HTMLCanvasElement>(':scope > canvas')) {
    const c = canvas.getBoundingClientRect();
    const overlaps = c.right > box.left && c.left < box.right && c.bottom > box.top && c.top < box.bottom;
    if (!overlaps || canvas.width === 0 || canvas.height === 0) continue;
    let href: string;
    try {
      href = canvas.toDataURL('image/png');
    } catch {
      continue; // a tainted canvas cannot be read; the axes still export
    }
    const image = document.createElementNS(SVG_NS, 'image');
    image.setAttribute('x', String((c.left - box.left) * sx + (vb?.x ?? 0)));
    image.setAttribute('y', String((c.top - box.top) * sy + (vb?.y ?? 0)));
    image.setAttribute('width', String(c.width * sx));
    image.setAttribute('height', String(c.height * sy));
    image.setAttribute('preserveAspectRatio', 'none');
    image.setAttribute('href', href);
    images.push(image);
  }
  clone.prepend(...images);
}

/** Elements that draw glyphs of their own (a <text> holding only <tspan>s draws none itself). */
function drawsGlyphs(el: Element): boolean {
  if (!(el instanceof SVGTextContentElement)) return false;
  return [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
}

/** Opacity of an element as drawn: its own times its ancestors' up to the chart's <svg>. */
function drawnOpacity(el: Element, root: Element): number {
  let o = 1;
  for (let n: Element | null = el; n && n !== root.parentElement; n = n.parentElement)
    o *= Number.parseFloat(getComputedStyle(n).opacity) || 0;
  return o;
}

/**
 * For each label whose colour does not reach AA against what is painted under its centre (the
 * background, then every shape before it in document order that contains the point, composited
 * with their opacities), the colour to write instead: black or white by the fill's luminance.
 */
function readableLabels(all: readonly SVGElement[], bg: Rgba): Map<Element, string> {
  const out = new Map<Element, string>();
  const root = all[0];
  const shapes: { i: number; el: SVGGeometryElement; box: DOMRect }[] = [];
  all.forEach((el, i) => {
    if (
      el instanceof SVGGeometryElement &&
      !(el instanceof SVGTextContentElement) &&
      !el.closest('defs, clipPath, mask, pattern, marker')
    )
      shapes.push({ i, el, box: el.getBoundingClientRect() });
  });
  all.forEach((el, i) => {
    if (!drawsGlyphs(el)) return;
    const cs = getComputedStyle(el);
    const own = parseColor(cs.fill);
    const r = el.getBoundingClientRect();
    if (!own || cs.visibility === 'hidden' || r.width === 0 || r.height === 0) return;
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    let under = bg;
    for (const s of shapes) {
      if (s.i >= i) break;
      const b = s.box;
      if (b.width === 0 || x < b.left || x > b.right || y < b.top || y > b.bottom) continue;
      const scs = getComputedStyle(s.el);
      const fill = parseColor(scs.fill);
      const m = s.el.getScreenCTM();
      if (!fill || fill.a === 0 || scs.visibility === 'hidden' || !m) continue;
      if (!s.el.isPointInFill(new DOMPoint(x, y).matrixTransform(m.inverse()))) continue;
      under = over(fill, under, (Number.parseFloat(scs.fillOpacity) || 0) * drawnOpacity(s.el, root));
    }
    const seen = over(own, under, (Number.parseFloat(cs.fillOpacity) || 0) * drawnOpacity(el, root));
    const want = readableOn(seen, under);
    if (want !== seen) out.set(el, cssColor(want));
  });
  return out;
}

/** The title band: the chart's title in bold and the caption under it, each wrapped to the width. */
function headingBand(h: ChartHeading, width: number): { nodes: SVGElement[]; height: number } {
  const body = getComputedStyle(document.body);
  const font = body.fontFamily || 'sans-serif';
  const ink = body.color || '#000000';
  const parts: [string, number, number][] = [
    [h.title, 15, 700],
    [h.caption, 14, 400],
  ];
  const nodes: SVGElement[] = [];
  let y = 6;
  for (const [text, size, weight] of parts)
    for (const line of wrapText(text, width - 16, `${weight} ${size}px ${font}`, 3)) {
      y += Math.round(size * 1.25);
      const t = document.createElementNS(SVG_NS, 'text');
      t.setAttribute('x', '8');
      t.setAttribute('y', String(y));
      t.setAttribute('style', `fill:${ink};font-family:${font};font-size:${size}px;font-weight:${weight}`);
      t.textContent = line;
      nodes.push(t);
    }
  return { nodes, height: y + 12 };
}

/**
 * The chart's key (`data-legend` on its <svg>: each line's label, colour and dash) drawn as rows of
 * swatch and label, wrapped to the width, from `y0`: on the page the legend is HTML beside the chart,
 * so an exported image had lines no one could tell apart. Null for a chart without one.
 */
function legendBand(
  svg: SVGSVGElement,
  width: number,
  y0: number,
): { nodes: SVGElement[]; height: number } | null {
  let items: { label: string; color: string; dashed: boolean }[];
  try {
    items = JSON.parse(svg.getAttribute('data-legend') ?? 'null');
  } catch {
    return null;
  }
  if (!Array.isArray(items) || items.length === 0) return null;
  const body = getComputedStyle(document.body);
  const font = body.fontFamily || 'sans-serif';
  const ink = body.color || '#000000';
  const ctx = document.createElement('canvas').getContext('2d');
  if (ctx) ctx.font = `400 14px ${font}`;
  // a colour as the page resolves it (the palette's are CSS variables)
  const probe = document.createElement('span');
  (svg.parentElement ?? document.body).append(probe);
  const resolve = (c: string) => {
    probe.style.color = '';
    probe.style.color = c;
    return getComputedStyle(probe).color || ink;
  };
  const nodes: SVGElement[] = [];
  const rowH = 20;
  let x = 8;
  let y = y0 + 4 + rowH / 2;
  for (const it of items) {
    // a label longer than the image is wide is cut with an ellipsis (a class's "its quantum's share")
    const label = wrapText(String(it.label), width - 16 - 28, `400 14px ${font}`, 1)[0] ?? '';
    const w = 22 + 6 + (ctx ? ctx.measureText(label).width : label.length * 8) + 16;
    if (x > 8 && x + w > width - 8) {
      x = 8;
      y += rowH;
    }
    const line = document.createElementNS(SVG_NS, 'line');
    line.setAttribute('x1', String(x));
    line.setAttribute('x2', String(x + 22));
    line.setAttribute('y1', String(y));
    line.setAttribute('y2', String(y));
    line.setAttribute(
      'style',
      `stroke:${resolve(it.color)};stroke-width:2.5${it.dashed ? ';stroke-dasharray:5 3' : ''}`,
    );
    const t = document.createElementNS(SVG_NS, 'text');
    t.setAttribute('x', String(x + 28));
    t.setAttribute('y', String(y + 5));
    t.setAttribute('style', `fill:${ink};font-family:${font};font-size:14px`);
    t.setAttribute('data-key', '');
    line.setAttribute('data-key', '');
    t.textContent = label;
    nodes.push(line, t);
    x += w;
  }
  probe.remove();
  return { nodes, height: y - y0 + rowH / 2 + 4 };
}

/**
 * `text` in lines of at most `max` px in `font` (measured on a canvas; one line without one), broken
 * at spaces, at most `most` lines, the last cut with an ellipsis if the text is longer still.
 */
function wrapText(text: string, max: number, font: string, most: number): string[] {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return [text];
  ctx.font = font;
  const fits = (s: string) => ctx.measureText(s).width <= max;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next) || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  const out = lines.slice(0, most);
  let last = out[out.length - 1] ?? '';
  if (lines.length > most || !fits(last)) {
    while (last.length > 0 && !fits(`${last}…`)) last = last.slice(0, -1).trimEnd();
    out[out.length - 1] = `${last}…`;
  }
  return out;
}

/** Rasterise an SVG document (at `scale` × its size) into a PNG blob. */
export async function svgToPng(svgText: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'sync';
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the chart could not be drawn as an image'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas here');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A file-name-friendly form of a title. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      // a cut can end on a separator: no "…-was-.svg"
      .replace(/-+$/, '') || 'fairground'
  );
}
