/**
 * Class service's share chart and table compare like with like: each class's part of DRR's charge
 * over the pops made while another class was queued (core's `contended` sums) against the quanta's
 * prediction for the same pops (`predicted`), not the whole-run share of served tokens against a
 * prediction that holds only while the classes contend. On trace-synthetic-chat the two differ: 55.8 %
 * over the run (uncached's backlog drains alone for its last 77 s) against 75.7 % of the contended
 * charge, beside the quanta's 80 %.
 */
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ClassService, contendedShares } from '../../../src/ui/views/ClassService';
import type { SimSnapshot } from '../../../src/worker/session';
import { clusterSnapshot } from './fixtures';

/** Two classes, the figures of trace-synthetic-chat's run (CLI, seed 11) at three samples. */
function snapshot(): SimSnapshot {
  const row = (name: string, over: Record<string, number | null>) => ({
    name,
    served_uncached_tokens: 0,
    share: 0,
    quantum_share: null,
    dispatched: 1,
    rejected: 0,
    p99_queue_wait_s: null,
    shed: 0,
    quantum: 1,
    queued: 0,
    backlogged_s: 100,
    backlogged: true,
    charged_cost: 0,
    contended_cost: 0,
    contended_share: null,
    contended_quantum_share: null,
    ...over,
  });
  const classes = [
    row('cached', {
      quantum: 2048,
      served_uncached_tokens: 1_511_281,
      share: 0.558,
      quantum_share: 0.8,
      charged_cost: 1_511_281,
      contended_cost: 1_300_500,
      contended_share: 0.7572,
      contended_quantum_share: 0.8,
    }),
    row('uncached', {
      quantum: 512,
      served_uncached_tokens: 1_196_933,
      share: 0.442,
      quantum_share: 0.2,
      charged_cost: 1_196_933,
      contended_cost: 416_953,
      contended_share: 0.2428,
      contended_quantum_share: 0.2,
    }),
  ];
  const series = {
    t: [0, 20, 150],
    served: [
      [0, 400_000, 1_511_281],
      [0, 100_000, 416_953],
    ],
    queued: [
      [0, 5, 0],
      [0, 3, 40],
    ],
    rejected: [
      [0, 0, 0],
      [0, 0, 0],
    ],
    shed: [
      [0, 0, 0],
      [0, 0, 0],
    ],
    contended: [
      [0, 0, 1_300_500],
      [0, 0, 416_953],
    ],
    predicted: [
      [0, 0, 1_373_962.4],
      [0, 0, 343_490.6],
    ],
  };
  return { ...clusterSnapshot(), class_service: { classes, saturated_s: 140, series } };
}

describe('Class service: the share of what DRR divides, while the classes contend', () => {
  test('contendedShares: each class part of the sums over the active classes, NaN before any', () => {
    const s = snapshot().class_service?.series;
    if (!s) throw new Error('no series');
    const active = [{ index: 0 }, { index: 1 }];
    const cached = contendedShares(s.contended, active, 0);
    expect(cached.slice(0, 2).every(Number.isNaN)).toBe(true);
    expect(cached[2]).toBeCloseTo(1_300_500 / 1_717_453, 12);
    expect(contendedShares(s.predicted, active, 1)[2]).toBeCloseTo(0.2, 12);
    // not the whole-run share of served tokens
    expect(cached[2]).not.toBeCloseTo(1_511_281 / (1_511_281 + 1_196_933), 2);
  });

  test('the table puts the contended share beside its prediction, the whole-run share apart', () => {
    const html = renderToStaticMarkup(h(ClassService, { snapshot: snapshot(), highlight: null })).replaceAll(
      '\u202f',
      ' ',
    );
    expect(html).toContain('<h3>Share of DRR&#x27;s charge while classes contend</h3>');
    const cells = [...html.matchAll(/data-label="([^"]+)">([^<]*)</g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(cells).toEqual(
      expect.arrayContaining([
        'share of run: 56 %',
        'share while contended: 76 %',
        'its quantum predicts: 80 %',
        'share while contended: 24 %',
        'its quantum predicts: 20 %',
      ]),
    );
    expect(html).not.toContain('quantum share</th>');
    expect(html).toContain(
      'cached 56 % of the served uncached tokens over the run, 76 % of DRR&#x27;s charge while another class was queued (its quantum predicts 80 %)',
    );
  });
});
