/** The charts on the page that can be exported: every drawn <svg> inside a named region. */
import { serializeSvg, slug, svgToPng, downloadBlob, downloadText } from './download';

export interface ChartRef {
  id: string;
  title: string;
  svg: SVGSVGElement;
}

function nameOf(svg: SVGSVGElement): string {
  const region = svg.closest<HTMLElement>('[aria-label], [aria-labelledby]');
  let region_name = region?.getAttribute('aria-label') ?? '';
  const by = region?.getAttribute('aria-labelledby');
  if (!region_name && by) region_name = document.getElementById(by)?.textContent ?? '';
  const own = svg.querySelector('title')?.textContent ?? svg.getAttribute('aria-label') ?? '';
  const short = own.length > 60 ? `${own.slice(0, 57)}…` : own;
  return short && short !== region_name ? `${region_name} — ${short}` : region_name || 'chart';
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
