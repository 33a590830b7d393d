/**
 * The Guarantees view, rendered on the server: the bound line, one gap line per pair with the worst
 * emphasised, violation markers and their text list, the formula and the broken variant's warning,
 * and the text alternative. Snapshots come from the engine on the two guarantee scenarios, plus
 * hand-made ones for the edge cases.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';
import {
  fmtUnits,
  gapAxis,
  gapAxisTop,
  Guarantees,
  guaranteeSummary,
  readGuarantee,
  pairsOverText,
  violationText,
  withKeys,
} from '../../../src/ui/views/Guarantees';
import type { ViewProps } from '../../../src/ui/views/types';
import type { GuaranteeSnapshot } from '../../../src/core/metrics/guarantee';
import type { SessionSnapshot, SimSnapshot } from '../../../src/worker/session';
import { ServiceScaleContext } from '../../../src/ui/views/scale-context';
import { sharedServiceScale } from '../../../src/ui/views/service-scale';
import { burstScript, clusterSnapshot, sessionSnapshot } from './fixtures';

const render = (snapshot: SessionSnapshot | null, highlight?: ViewProps['highlight']) =>
  renderToStaticMarkup(h(Guarantees, { snapshot, highlight })).replaceAll('\u202f', ' ');

function engineSnapshot(file: string, t: number): SimSnapshot {
  const r = parseScenarioText(readFileSync(join(__dirname, '../../../scenarios', file), 'utf8'));
  if (!r.ok) throw new Error('invalid scenario');
  const sim = new Simulation(r.value, { record: false });
  sim.runUntil(t);
  return JSON.parse(JSON.stringify(sim.snapshot())) as SimSnapshot;
}

const real = engineSnapshot('guarantee-dlpm.yaml', 20);
const broken = engineSnapshot('guarantee-broken-dlpm.yaml', 20);

/** A small hand-made guarantee: two pairs, one violation. */
function handMade(over: Partial<GuaranteeSnapshot> = {}): SimSnapshot {
  const pair = (
    a: string,
    b: string,
    max_gap: number,
    current_gap: number | null,
    violated_at: number | null,
  ) => ({
    a,
    b,
    max_gap,
    max_gap_at: 1,
    current_gap,
    violated_at,
  });
  const worst = pair('alice', 'bob', 5210, 5000, 12.4);
  const base = clusterSnapshot();
  return {
    ...base,
    sim_time_s: 20,
    guarantee: {
      ...base.guarantee,
      algorithm: 'dlpm',
      theorem: 'DLPM Theorem 4.1',
      bound: 4800,
      bound_label: 'DLPM Theorem 4.1: 2·(U + Q^u)',
      formula: [
        'U = w_e·L_input + w_q·M = ',
        1,
        '·',
        300,
        ' + ',
        2,
        '·',
        700,
        ' = ',
        1700,
        '; bound = 2·(U + Q^u) = 2·(',
        1700,
        ' + ',
        700,
        ') = ',
        4800,
      ],
      reason: 'DLPM on one worker',
      broken: false,
      warning: null,
      pairs: [worst, pair('alice', 'carol', 900, null, null), pair('bob', 'carol', 0, null, null)],
      pair_count: 3,
      worst,
      violations: [{ t: 12.4, a: 'alice', b: 'bob', gap: 5210, bound: 4800 }],
      violation_count: 1,
      series: {
        t: [0, 5, 10, 15, 20],
        rows: { 'alice|bob': [0, 1000, 3000, 5210, 5000], 'alice|carol': [null, 300, 900, null, null] },
        bound: [4800, 4800, 4800, 4800, 4800],
        dt: 5,
      },
      ...over,
    },
  };
}

describe('Guarantees view', () => {
  test('hand-made: bound line, pairs with the worst emphasised, a marker and its text', () => {
    const html = render(handMade());
    expect(html).toContain('aria-label="Guarantees"');
    expect(html).toContain('data-violations="1"');
    expect(html).toContain('data-bound="4800"');
    expect(html).toContain('bound 4 800');
    // one line per pair in the series, legend "alice–bob", the worst heavier
    expect([...html.matchAll(/data-pair="([^"]+)" data-worst="true"/g)].map((m) => m[1])).toEqual([
      'alice|bob',
    ]);
    // ... and drawn last, on top
    expect([...html.matchAll(/class="series-line gu-pair" data-pair="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'alice|carol',
      'alice|bob',
    ]);
    expect(html).toContain('alice–bob');
    // the y title, wrapped onto two rotated lines so that it fits the plot's height
    expect(html).toContain(
      '<tspan x="0" dy="0">service gap (service</tspan><tspan x="0" dy="16">units)</tspan>',
    );
    // the marker (with its text as a tooltip) and the list
    expect(html).toMatch(/class="gu-violation" data-t="12.4"/);
    expect(html).toContain('violated at t = 12.4 s: alice–bob gap 5 210 &gt; bound 4 800');
    // pairs, not crossings, counted in words that say so (tryout: "2 violations" was 2 pairs)
    expect(html).toContain('1 pair over the bound</h3>');
    // the formula with its numbers
    expect(html).toContain('2·(1 700 + 700) = 4 800');
    // text alternative
    expect(html).toContain(
      'aria-label="Max gap 5 210 of bound 4 800 (109 %, alice–bob); 1 pair over the bound, first at t = 12.4 s (alice–bob)"',
    );
    expect(html).not.toContain('Warning:');
  });

  test('summary text: the share of the bound, or no violations', () => {
    const g = readGuarantee(
      handMade({
        violations: [],
        violation_count: 0,
        worst: { a: 'a', b: 'b', max_gap: 3100, max_gap_at: 1, current_gap: null, violated_at: null },
      }),
    )!;
    expect(guaranteeSummary(g)).toBe('Max gap 3\u202f100 of bound 4\u202f800 (65 %, a–b); no violations');
    expect(fmtUnits(26_258.4)).toBe('26\u202f258');
    expect(violationText({ t: 4.046, a: 'alice', b: 'hog', gap: 26_258, bound: 26_200 })).toBe(
      'violated at t = 4.05 s: alice–hog gap 26\u202f258 > bound 26\u202f200',
    );
  });

  test('real DLPM from the engine: the bound, gaps below it, no violations', () => {
    const html = render(real);
    expect(html).toContain('data-algorithm="dlpm"');
    expect(html).toContain('data-broken="false"');
    expect(html).toContain('data-violations="0"');
    expect(html).toMatch(
      /aria-label="Max gap [\d ]+ of bound 26 200 \(\d+\u00a0%, [a-z]+–[a-z]+\); no violations"/,
    );
    expect(html).toContain('No violations: every backlogged pair has stayed within the bound.');
    expect(html).toContain('2·(12 600 + 500) = 26 200');
    expect(html).not.toContain('class="gu-violation"');
    expect(html).not.toContain('Warning:');
    expect([...html.matchAll(/class="series-line gu-pair"/g)]).toHaveLength(3);
  });

  test('broken DLPM from the engine: warning, markers and the list with times', () => {
    const html = render(broken);
    expect(html).toContain('data-broken="true"');
    expect(html).toContain('broken variant');
    expect(html).toMatch(/role="note"[^>]*><strong>Warning: <\/strong>This is a deliberately broken DLPM/);
    expect(html).toMatch(/violated at t = [\d.]+ s: (alice|bob)–hog gap [\d ]+ &gt; bound 26 200/);
    const markers = [...html.matchAll(/class="gu-violation"/g)];
    expect(markers.length).toBe((broken.guarantee as { violation_count: number }).violation_count);
    expect(html).toMatch(
      /aria-label="Max gap [\d ]+ of bound 26 200 \(\d+\u00a0%, [a-z]+–hog\); 2 pairs over the bound, first at t = /,
    );
  });

  test('no theorem: gaps still drawn, the reason instead of a bound', () => {
    const html = render(
      handMade({
        algorithm: null,
        theorem: 'none',
        bound: null,
        bound_label: 'no bound',
        formula: [
          'no fairness theorem covers the lpm scheduler (DLPM, VTC and DoubleQ have one): gaps are measured, not bounded',
        ],
        violations: [],
        violation_count: 0,
      }),
    );
    expect(html).toContain('no theorem applies');
    expect(html).toContain('no fairness theorem covers the lpm scheduler');
    expect(html).toContain('Max gap 5 210 (alice–bob); no bound applies');
    expect(html).not.toContain('data-bound');
    expect(html).toContain('data-pair="alice|bob"');
  });

  test('empty states: no guarantee in the snapshot, or no pair backlogged together yet', () => {
    expect(render(null)).toContain('No fairness guarantee in this snapshot');
    expect(render(sessionSnapshot(burstScript(), 1))).toContain('No fairness guarantee in this snapshot');
    const html = render(handMade({ series: { t: [], rows: {}, bound: [], dt: 5 }, worst: null, pairs: [] }));
    expect(html).toContain('No pair of clients has been backlogged together yet');
  });

  test('no "yet" once nothing can change: a run that has ended, or one with a single client (tryout)', () => {
    const none = { series: { t: [], rows: {}, bound: [], dt: 5 }, worst: null, pairs: [] };
    const ended = render({ ...handMade(none), done: true });
    expect(ended).toContain('No pair of clients was ever backlogged together in this run');
    expect(ended).not.toContain(' yet');
    const one = render({ ...handMade({ ...none, pair_count: 0 }), done: false });
    expect(one).toContain('This run has one client, so there is no pair to compare');
    expect(one).not.toContain(' yet');
  });

  test('pairs over the bound, and the crossings when a pair crossed more than once', () => {
    const g = readGuarantee(handMade({ violation_count: 3 }));
    expect(g && pairsOverText(g)).toBe('1 pair over the bound, 3 crossings');
  });

  test('a selected client brings its pairs forward', () => {
    const html = render(handMade(), { client: 'carol' });
    expect(html).toMatch(/<li data-pair="alice\|carol" class="selected">/);
  });

  test('a bound far above the gaps goes off scale: the axis follows the gaps, a marker names the bound', () => {
    const over = {
      bound: 1_200_000,
      violations: [],
      violation_count: 0,
      series: {
        t: [0, 5, 10, 15, 20],
        rows: { 'alice|bob': [0, 1000, 3000, 5000, 4000], 'alice|carol': [null, 300, 900, null, null] },
        bound: [1_200_000, 1_200_000, 1_200_000, 1_200_000, 1_200_000],
        dt: 5,
      },
    };
    const snap = handMade(over);
    const g = readGuarantee(snap);
    expect(g && gapAxisTop(g)).toEqual({ top: 5000, boundOffScale: true });
    const html = render(snap);
    expect(html).toContain('data-bound="1200000" data-off-scale="true"');
    expect(html).toContain('bound 1 200 000 ↑ (off scale)');
    // the bound's value stays in the legend and the summary
    expect(html).toContain('bound 1 200 000 (above the axis)');
    expect(html).toContain('of bound 1 200 000');
    // no dashed bound line or ruled-out region squeezed into the plot
    expect(html).not.toContain('stroke-dasharray:6 4');
    expect(html).not.toContain('ruled out by');
    // the worst gap (5 000) reaches the upper part of the plot (y from 12 to 196): not a flat line
    const d = html.match(/data-worst="true" d="([^"]+)"/)?.[1] ?? '';
    const ys = [...d.matchAll(/,(-?[\d.]+)/g)].map((m) => Number(m[1]));
    expect(Math.min(...ys)).toBeLessThan(60);
  });

  test('a bound within 4× the largest gap stays on the axis, drawn as a line', () => {
    const rows = { 'alice|bob': [0, 1000, 3000, 5000, 4000] };
    const at = (bound: number) => {
      const snap = handMade({
        bound,
        violations: [],
        violation_count: 0,
        series: { t: [0, 5, 10, 15, 20], rows, bound: [bound, bound, bound, bound, bound], dt: 5 },
      });
      const g = readGuarantee(snap);
      return { axis: g && gapAxisTop(g), html: render(snap) };
    };
    const edge = at(20_000);
    expect(edge.axis).toEqual({ top: 20_000, boundOffScale: false });
    expect(edge.html).toContain('data-bound="20000">');
    expect(edge.html).toContain('bound 20 000</text>');
    expect(edge.html).not.toContain('off scale');
    expect(at(20_001).axis).toEqual({ top: 5000, boundOffScale: true });
  });

  test('a violation keeps the bound on the axis (the gap is above it)', () => {
    const g = readGuarantee(handMade());
    expect(g && gapAxisTop(g)).toEqual({ top: 5210, boundOffScale: false });
  });

  test('a bound that grew counts from its lowest drawn value, not from before any backlog', () => {
    const snap = handMade({
      bound: 30_000,
      violations: [],
      violation_count: 0,
      series: {
        t: [0, 5, 10, 15, 20],
        rows: { 'alice|bob': [null, 1000, 3000, 5000, 4000] },
        // before the first backlogged sample the bound is not drawn, so 100 there does not count
        bound: [100, 25_000, 25_000, 30_000, 30_000],
        dt: 5,
      },
    });
    const g = readGuarantee(snap);
    expect(g && gapAxisTop(g)).toEqual({ top: 5000, boundOffScale: true });
    const grownLess = readGuarantee(
      handMade({
        bound: 30_000,
        violations: [],
        violation_count: 0,
        series: {
          t: [0, 5, 10, 15, 20],
          rows: { 'alice|bob': [null, 1000, 3000, 5000, 4000] },
          bound: [100, 15_000, 15_000, 30_000, 30_000],
          dt: 5,
        },
      }),
    );
    expect(grownLess && gapAxisTop(grownLess)).toEqual({ top: 30_000, boundOffScale: false });
  });

  test('a shared gap axis (a tour’s steps, Compare’s columns) draws every run on the same scale', () => {
    const gaps = (top: number, bound: number | null) =>
      handMade({
        bound,
        violations: [],
        violation_count: 0,
        series: {
          t: [0, 5, 10],
          rows: { 'alice|bob': [0, top / 2, top] },
          bound: [bound, bound, bound],
          dt: 5,
        },
      });
    // LPM's step: no theorem, gaps up to 34 000; DLPM's: gaps up to 25 000, the bound 252 000 off scale
    const lpm = gaps(34_000, null);
    const dlpm = gaps(25_000, 252_000);
    const shared = sharedServiceScale([lpm, dlpm]).gap;
    expect(shared).toBe(34_000);
    const g = readGuarantee(dlpm);
    if (!g) throw new Error('no guarantee');
    expect(gapAxis(g, shared)).toEqual({ top: 34_000, boundOffScale: true });
    // a shared top above the bound brings the bound onto the axis
    expect(gapAxis(g, 300_000)).toEqual({ top: 300_000, boundOffScale: false });
    const ticks = (html: string) => [...html.matchAll(/<text[^>]*>([\d.]+k?)<\/text>/g)].map((m) => m[1]);
    const withScale = (snap: SimSnapshot) =>
      renderToStaticMarkup(
        h(
          ServiceScaleContext.Provider,
          { value: { cumulative: 1, rate: 1, gap: shared } },
          h(Guarantees, { snapshot: snap, highlight: null }),
        ),
      );
    // on their own the two charts have different y axes; with the shared scale the same one
    expect(ticks(render(lpm))).not.toEqual(ticks(render(dlpm)));
    expect(ticks(withScale(dlpm))).toEqual(ticks(withScale(lpm)));
    expect(ticks(withScale(dlpm))).toEqual(ticks(render(lpm)));
  });
});

describe('withKeys (tryout B3)', () => {
  test("a setting's name is code that may break after each dot and underscore; the rest stays text", () => {
    const html = renderToStaticMarkup(
      h(
        'p',
        null,
        withKeys('broken DLPM (scheduler.dlpm_quantum_per_request): it grants Q^u. Theorem 4.1 needs'),
      ),
    );
    expect(html).toBe(
      '<p>broken DLPM (<code class="gu-key">scheduler.<wbr/>dlpm_<wbr/>quantum_<wbr/>per_<wbr/>request</code>): it grants Q^u. Theorem 4.1 needs</p>',
    );
  });
});
