/**
 * The Class service table shows the requests shed because their due time passed (HTTP 429) beside
 * the queue limits' rejections (529), "rejected / shed", and a chart of them over time apart, when any
 * class shed any; a class whose requests were all shed is listed in the table, not among the idle
 * ones. (And the p99 router wait column prints its figures in one unit.)
 */
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ClassService } from '../../../src/ui/views/ClassService';
import type { SimSnapshot } from '../../../src/worker/session';
import { clusterSnapshot } from './fixtures';

function withClasses(
  rows: { name: string; dispatched: number; rejected: number; shed: number; p99_queue_wait_s?: number }[],
): SimSnapshot {
  const classes = rows.map((r) => ({
    served_uncached_tokens: 100 * r.dispatched,
    share: 0,
    quantum_share: null,
    p99_queue_wait_s: null,
    quantum: 10,
    queued: 0,
    backlogged_s: 0,
    backlogged: false,
    charged_cost: 0,
    contended_cost: 0,
    contended_share: null,
    contended_quantum_share: null,
    ...r,
  }));
  const n = rows.length;
  const series = {
    t: [0, 1],
    served: Array(n).fill([0, 0]),
    queued: Array(n).fill([0, 0]),
    rejected: Array(n).fill([0, 0]),
    shed: rows.map((r) => [0, r.shed]),
    contended: Array(n).fill([0, 0]),
    predicted: Array(n).fill([0, 0]),
  };
  return { ...clusterSnapshot(), class_service: { classes, saturated_s: 0, series } };
}

const render = (s: SimSnapshot) => renderToStaticMarkup(h(ClassService, { snapshot: s, highlight: null }));

describe('Class service table: requests shed for a passed due time', () => {
  test('get a column when a class shed any, and a class that only shed is listed', () => {
    const html = render(
      withClasses([
        { name: 'fast', dispatched: 3, rejected: 1, shed: 0 },
        { name: 'late', dispatched: 0, rejected: 0, shed: 2 },
      ]),
    );
    // (the table's elements carry their roles: a narrow card draws its rows as blocks)
    // (beside the rejections: an eleventh column made the table scroll sideways in an 811 px card)
    expect(html).toContain('<th scope="col" role="columnheader">rejected (529) / shed past due (429)</th>');
    expect(html).toMatch(
      /<th scope="row" role="rowheader">.*late<\/th>(<td role="cell" data-label="[^"]*">[^<]*<\/td>){6}<td role="cell" data-label="rejected \(529\) \/ shed past due \(429\)">0 \/ 2<\/td>/,
    );
    expect(html).toContain(
      'late 0 % of the served uncached tokens over the run, never popped while another class was queued, 0 dispatched, 0 rejected, 2 shed, 0 queued',
    );
    expect(html).not.toMatch(/No requests so far in:[^<]*late/);
    // and a chart of the shed requests over time, with its own title
    expect(html).toContain('<h3>Shed past due (HTTP 429)</h3>');
    expect(html).toContain('Queued requests each class shed because their due time passed: fast 0, late 2');
  });
  test('the p99 router wait column has one unit and one number of decimals', () => {
    const html = render(
      withClasses([
        { name: 'fast', dispatched: 3, rejected: 0, shed: 0, p99_queue_wait_s: 0.281 },
        { name: 'slow', dispatched: 3, rejected: 0, shed: 0, p99_queue_wait_s: 3.17 },
      ]),
    );
    const waits = [...html.matchAll(/data-label="p99 router wait">([^<]*)</g)].map((m) => m[1]);
    // each alone: "281 ms" and "3.17 s"
    expect(waits).toEqual(['0.28 s', '3.17 s']);
  });
  test('no column when nothing was shed', () => {
    const html = render(withClasses([{ name: 'fast', dispatched: 3, rejected: 1, shed: 0 }]));
    expect(html).not.toContain('past due');
  });
});
