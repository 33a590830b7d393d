/** The charts on the page that can be exported: every drawn <svg> inside a named region. */
import { serializeSvg, slug, svgToPng, downloadBlob, downloadText } from './download';

export interface ChartRef {
  id: string;
  title: string;
  svg: SVGSVGElement;
}

function regionName(el: Element | null): string {
  if (!el) return '';
  const label = el.getAttribute('aria-label');
  if (label) return label;
  const by = el.getAttribute('aria-labelledby');
  return (by && document.getElementById(by)?.textContent?.trim()) || '';
}

/** "Region — what the chart shows", e.g. "Client service — Cumulative service per client". */
/** Close a parenthesis the cut left open ("deficit (service units" → "deficit (service units)"). */
export function balanced(text: string): string {
  const open = (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
  return open > 0 ? text + ')'.repeat(open) : text;
}

function nameOf(svg: SVGSVGElement): string {
  const region = regionName(
    svg.parentElement?.closest('section[aria-label], section[aria-labelledby], [role="region"]') ?? null,
  );
  const own = balanced(
    (svg.querySelector(':scope > title')?.textContent ?? svg.getAttribute('aria-label') ?? '')
      .split(/[;:]| over /)[0]
      .trim(),
  );
  if (own && region && own !== region) return `${region} — ${own}`;
  return region || own || 'chart';
}

/** Charts in `root` (the page by default), skipping icons and empty drawings. */
export function findCharts(root: ParentNode = document): ChartRef[] {
  const out: ChartRef[] = [];
  root.querySelectorAll<SVGSVGElement>('svg').forEach((svg, i) => {
    if (svg.parentElement?.closest('svg')) return;
    const box = svg.getBoundingClientRect();
    if (box.width < 80 || box.height < 60) return;
    out.push({ id: `chart-${i}`, title: nameOf(svg), svg });
  });
  return out;
}

export function downloadSvg(chart: ChartRef): void {
  const { text } = serializeSvg(chart.svg);
  downloadText(text, `${slug(chart.title)}.svg`, 'image/svg+xml');
}

export async function downloadPng(chart: ChartRef): Promise<void> {
  const { text, width, height } = serializeSvg(chart.svg);
  downloadBlob(await svgToPng(text, width, height), `${slug(chart.title)}.png`);
}
