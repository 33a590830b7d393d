/**
 * Bounds must not squash the data they belong to: the time chart's y extent comes from its lines and
 * a much wider band is clipped (and says so); small fixes around it (replica count, the latency bar
 * key hiding with the bars).
 */
import { sharedServiceScale } from '../../../src/ui/views/service-scale';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ClientService } from '../../../src/ui/views/ClientService';
import { type ChartBand, chartYDomain, TimeChart } from '../../../src/ui/views/TimeChart';
import { Workers } from '../../../src/ui/views/Workers';
import type { SimSnapshot } from '../../../src/worker/session';
import { clusterSnapshot } from './fixtures';

const band = (lo: number[], hi: number[], short?: string): ChartBand => ({
  lo,
  hi,
  label: 'the band',
  short,
});

describe('chartYDomain', () => {
  const lines = [
    [0, 20_000, 60_000, 100_000],
    [0, 10_000, 30_000, 50_000],
  ];
  test('the lines set the extent, from 0 when all are ≥ 0 (niced)', () => {
    expect(chartYDomain(lines)).toEqual({ domain: [0, 100_000], bandBeyond: false });
    expect(chartYDomain([[3, 97]])).toEqual({ domain: [0, 100], bandBeyond: false });
  });
  test('a band far below the lines is clipped, not taken into the extent', () => {
    const b = band([-1_000_000, -980_000, -940_000, -900_000], [0, 20_000, 60_000, 100_000]);
    expect(chartYDomain(lines, b)).toEqual({ domain: [0, 100_000], bandBeyond: true });
  });
  test('a band inside the lines changes nothing; one a little beyond is shown whole', () => {
    expect(chartYDomain(lines, band([0, 10_000, 40_000, 80_000], [0, 20_000, 60_000, 100_000]))).toEqual({
      domain: [0, 100_000],
      bandBeyond: false,
    });
    // −26,200 stretches 0..100k to −50k..100k (niced): 1.5× the lines' own span, still included
    expect(
      chartYDomain(lines, band([-26_200, -6_200, 33_800, 73_800], [0, 20_000, 60_000, 100_000])),
    ).toEqual({
      domain: [-50_000, 100_000],
      bandBeyond: false,
    });
    // −60,000 would stretch it to −100k..100k (niced, 2×): clipped instead
    expect(chartYDomain(lines, band([-60_000, 0, 0, 0], [0, 0, 0, 0])).bandBeyond).toBe(true);
  });
  test('a fixed domain is kept; without finite lines the band decides', () => {
    expect(chartYDomain([[0.5]], band([-1], [2]), [0, 1])).toEqual({ domain: [0, 1], bandBeyond: true });
    expect(chartYDomain([[Number.NaN]], band([0, 10], [5, 20]))).toEqual({
      domain: [0, 20],
      bandBeyond: false,
    });
    expect(chartYDomain([])).toEqual({ domain: [0, 1], bandBeyond: false });
  });
});

describe('TimeChart with a band wider than its lines', () => {
  const t = [0, 1, 2, 3];
  const hi = [0, 20_000, 60_000, 100_000];
  const render = (b: ChartBand) =>
    renderToStaticMarkup(
      h(TimeChart, {
        t,
        lines: [{ key: 'a', label: 'a', colorIndex: 0, values: hi }],
        band: b,
        yLabel: 'units',
        summary: 'Service',
      }),
    );
  test('the band is clipped to the plot area and its title, a note and the summary say so', () => {
    const html = render(
      band(
        hi.map((v) => v - 1_000_000),
        hi,
        'bound band 1,000,000 below the leader',
      ),
    );
    const d = html.match(/class="band" d="([^"]+)"/)?.[1] ?? '';
    const ys = [...d.matchAll(/,(-?[\d.]+)/g)].map((m) => Number(m[1]));
    expect(ys.length).toBe(8);
    // plot area: y from 10 (top) to 181 (bottom, 220 − 39: room under the axis for the tick labels and the x title, TimeAxes axisBand)
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...ys)).toBe(181);
    expect(html).toContain('data-beyond="true"');
    expect(html).toContain('the band (bound band 1,000,000 below the leader extends beyond the chart)');
    expect(html).toContain('class="band-beyond"');
    expect(html).toContain(
      'aria-label="Service; bound band 1,000,000 below the leader extends beyond the chart"',
    );
    // the line keeps the whole height: its last point is at the top
    expect(html).toMatch(/data-series="a" d="[^"]*,10"/);
  });
  test('a band that fits is drawn without any note', () => {
    const html = render(
      band(
        hi.map((v) => v / 2),
        hi,
        'bound band',
      ),
    );
    expect(html).toContain('class="band"');
    expect(html).not.toContain('data-beyond');
    expect(html).not.toContain('beyond the chart');
    expect(html).toContain('aria-label="Service"');
  });
});

describe('ClientService with a bound far above the service', () => {
  // the gauge reads core's guarantee (the bound, and the gap it bounds: 400 while both were backlogged)
  const render = (value: number, violations = 0, gap = 400) => {
    const base = clusterSnapshot();
    const worst = { a: 'alice', b: 'bob', max_gap: gap, max_gap_at: 4, current_gap: gap, violated_at: null };
    return renderToStaticMarkup(
      h(ClientService, {
        snapshot: {
          ...base,
          fairness_bound: { value, label: 'DoubleQ bound' },
          guarantee: {
            ...base.guarantee,
            algorithm: 'doubleq',
            bound: value,
            bound_label: 'DoubleQ bound',
            pairs: [worst],
            worst,
            violation_count: violations,
          },
        },
      }),
    ).replaceAll('\u202f', ' ');
  };
  test('the curves keep their own scale; the bound is a gauge against the spread, on an axis normalised to it', () => {
    const html = render(987_664);
    // no band under the curves (a bound many times the service left it mostly off the chart)
    expect(html).not.toContain('class="band"');
    expect(html).not.toContain('beyond the chart');
    // service goes to 800: the y axis tops out at 800, not near a million
    expect(html).toContain('>800</text>');
    expect(html).not.toContain('−1M');
    // the spread and the bound on one gauge, with both numbers
    expect(html).toMatch(/class="cs-spread gu-gauges" data-share="0\.\d+"/);
    expect(html).toMatch(
      /title="DoubleQ bound">largest gap while both clients were backlogged = 400 \(alice–bob\) = [^<]*% of the bound 987 664/,
    );
    expect(html).toMatch(/class="gu-gauge-bound" style="left:80%"/);
  });
  test('a violation is marked; a whole-run spread over the bound is not one', () => {
    expect(render(987_664, 1)).toContain('class="gu-gauge over"');
    // the curves end 400 apart, over the bound 300, but the gap while both were backlogged is 100
    expect(render(300, 0, 100)).not.toContain('class="gu-gauge over"');
  });
});

describe('small wording and layout fixes', () => {
  test('one worker is "1 replica", more are plural', () => {
    const snap = clusterSnapshot();
    expect(renderToStaticMarkup(h(Workers, { snapshot: snap }))).toContain('2 replicas</span>');
    snap.workers = snap.workers.slice(0, 1);
    const one = renderToStaticMarkup(h(Workers, { snapshot: snap }));
    expect(one).toContain('1 replica</span>');
    expect(one).not.toContain('1 replicas');
  });
  test('the latency bar key hides in the same container query as the bars', () => {
    const css = readFileSync(join(__dirname, '../../../src/ui/views/views.css'), 'utf8');
    const block = css.match(/@container \(max-width: 380px\) \{([\s\S]*?)\n\}/)?.[1] ?? '';
    expect(block).toMatch(/\.fig-table \.bars,\s*\.view \.fig-latency \.fig-bar-key \{\s*display: none;/);
    // a latency cell may break after its slash, never inside a value
    expect(css).toMatch(/\.fig-table \.fig-v \{\s*white-space: nowrap;/);
    expect(css).toMatch(/\.fig-table td\.lat \{\s*white-space: normal;/);
  });
});

describe('a service scale shared by several runs (Compare)', () => {
  test('fits the largest cumulative service and rate of every run', () => {
    const run = (a: number[], b: number[]): SimSnapshot => {
      const base = clusterSnapshot();
      const [alice, bob] = Object.values(base.clients);
      return {
        ...base,
        sim_time_s: 3,
        clients: { a: { ...alice, service: a[3] }, b: { ...bob, service: b[3] } },
        series: { t: [0, 1, 2, 3], rows: { 'service:a': a, 'service:b': b }, dt: 1 },
      };
    };
    const scale = sharedServiceScale([
      run([0, 10, 20, 30], [0, 5, 10, 15]),
      run([0, 40, 80, 90], [0, 1, 2, 3]),
      null,
    ]);
    expect(scale.cumulative).toBe(90);
    expect(scale.rate).toBeGreaterThanOrEqual(30);
    expect(sharedServiceScale([null])).toEqual({ cumulative: 0, rate: 0, gap: 0 });
  });
});
