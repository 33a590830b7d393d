/** The charts on the page that can be exported: every drawn <svg> inside a named region. */
import { useUi } from '../../state/store';
import { fmtCount, fmtSeconds } from '../views/format';
import { type ChartHeading, serializeSvg, slug, svgToPng, downloadBlob, downloadText } from './download';

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

/** Close a parenthesis the cut left open ("deficit (service units" → "deficit (service units)"). */
export function balanced(text: string): string {
  const open = (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
  return open > 0 ? text + ')'.repeat(open) : text;
}

/**
 * The chart's name: its `data-chart-name` when it has one (a chart whose text alternative reads out
 * the run's figures, as Guarantees' does, names itself there, so the file name stays a name), else
 * the head of its title or label. With its view's region: "Client service — Cumulative service per
 * client".
 */
function nameOf(svg: SVGSVGElement): string {
  const region = regionName(
    svg.parentElement?.closest('section[aria-label], section[aria-labelledby], [role="region"]') ?? null,
  );
  const own = balanced(
    (
      svg.dataset.chartName ??
      svg.querySelector(':scope > title')?.textContent ??
      svg.getAttribute('aria-label') ??
      ''
    )
      .split(/[;:]| over /)[0]
      .trim(),
  );
  if (own && region && own !== region) return `${region} — ${own}`;
  return region || own || 'chart';
}

/**
 * Whether a drawn <svg> is a chart Export offers: every view's drawing scales to its box through a
 * viewBox, however small its content (a radix tree of one or two rows is 20 or 40 px high); an icon
 * (a legend swatch) has a fixed size and no viewBox. A drawing inside another, or one not laid out
 * (a hidden tab: a 0 × 0 box), is not offered.
 */
export function isChart(svg: { nested: boolean; viewBox: boolean; width: number; height: number }): boolean {
  return !svg.nested && svg.viewBox && svg.width > 0 && svg.height > 0;
}

/** Charts in `root` (the page by default): every view's drawing on screen, no icons. */
export function findCharts(root: ParentNode = document): ChartRef[] {
  const out: ChartRef[] = [];
  root.querySelectorAll<SVGSVGElement>('svg').forEach((svg, i) => {
    const box = svg.getBoundingClientRect();
    const drawn = {
      nested: svg.parentElement?.closest('svg') != null,
      viewBox: svg.hasAttribute('viewBox'),
      width: box.width,
      height: box.height,
    };
    if (isChart(drawn)) out.push({ id: `chart-${i}`, title: nameOf(svg), svg });
  });
  return out;
}

/** The moment of the run on screen: the simulated time and decision, or the sandbox's step. */
export function momentText(ui: {
  kind: 'cluster' | 'arbitration' | null;
  simTime: number;
  decisionCount: number;
  totalSteps: number | null;
}): string {
  if (ui.kind === 'arbitration')
    return `step ${fmtCount(ui.decisionCount)}${ui.totalSteps !== null ? ` of ${fmtCount(ui.totalSteps)}` : ''}`;
  return `t = ${fmtSeconds(ui.simTime)}, decision ${fmtCount(ui.decisionCount)}`;
}

/** What an exported image says above the chart: the view and chart, the scenario and the moment. */
export function chartHeading(chart: ChartRef): ChartHeading {
  const ui = useUi.getState();
  const scenario = ui.scenarioName || ui.scenarioId || 'run';
  return { title: chart.title, caption: `${scenario} · ${momentText(ui)}` };
}

export function downloadSvg(chart: ChartRef): void {
  const { text } = serializeSvg(chart.svg, chartHeading(chart));
  downloadText(text, `${slug(chart.title)}.svg`, 'image/svg+xml');
}

export async function downloadPng(chart: ChartRef): Promise<void> {
  const { text, width, height } = serializeSvg(chart.svg, chartHeading(chart));
  downloadBlob(await svgToPng(text, width, height), `${slug(chart.title)}.png`);
}
