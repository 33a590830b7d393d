/**
 * The rules panel's algorithm listings (#13.2): DLPM's and DoubleQ's lines, and the line a decision
 * took, read from the decision details the simulator writes.
 */
import { describe, expect, test } from 'vitest';
import type { DlpmAdmitDetail, DoubleQDispatchDetail } from '../../../src/core/algorithms';
import { routingAlgorithm, schedulerAlgorithm } from '../../../src/core/algorithms';
import { dlpmTaken } from '../../../src/core/algorithms/dlpm/listing';
import { doubleqTaken } from '../../../src/core/algorithms/doubleq/listing';

const admit = (over: Partial<DlpmAdmitDetail>): DlpmAdmitDetail => ({
  algo: 'dlpm',
  order: [{ request: 'a#0', client: 'a', prefix_match: 0, deficit: 5, outcome: 'admitted', charge: 10 }],
  skipped: [],
  admitted: ['a#0'],
  ...over,
});

describe('DLPM listing', () => {
  test('every taken line is a line of the listing', () => {
    const ids = new Set(schedulerAlgorithm('dlpm')?.listing?.listing.lines.map((l) => l.id));
    const t = dlpmTaken(
      'admit',
      admit({ skipped: [{ client: 'b', deficit: -3 }], refill: { quantum: 5, clients: ['b'] } }),
    );
    for (const id of t?.fired ?? []) expect(ids.has(id)).toBe(true);
  });
  test('an admission after a skip and a refill: sort, refill, skip, admit (admit settles it)', () => {
    const t = dlpmTaken(
      'admit',
      admit({ skipped: [{ client: 'b', deficit: -3 }], refill: { quantum: 5, clients: ['b'] } }),
    );
    expect(t?.fired).toEqual(['sort', 'scan', 'refill', 'skip', 'admit']);
    expect(t?.decisive).toBe('admit');
  });
  test('nothing fits: the no-room line settles it; a batch step is the forward charge', () => {
    const t = dlpmTaken(
      'admit',
      admit({
        admitted: [],
        order: [{ request: 'a#0', client: 'a', prefix_match: 0, deficit: 5, outcome: 'no-room' }],
      }),
    );
    expect(t?.decisive).toBe('no-room');
    expect(dlpmTaken('step', null)).toEqual({ fired: ['forward'], decisive: 'forward' });
    expect(dlpmTaken('complete', null)).toBeNull();
  });
});

describe('DoubleQ listing', () => {
  const dispatch = (G: number[], Gavail: number[], refills = 0): DoubleQDispatchDetail => ({
    algo: 'doubleq',
    g: G,
    g_avail: Gavail,
    refills,
    chosen: Gavail[0],
    queue_lens: [0, 0, 0],
    deficits: {},
  });
  test('locality when a worker holding the prefix has credit, fairness otherwise', () => {
    expect(doubleqTaken('dispatch', dispatch([1], [1, 2]))?.decisive).toBe('locality');
    const f = doubleqTaken('dispatch', dispatch([0], [2], 2));
    expect(f?.decisive).toBe('fairness');
    expect(f?.fired).toContain('refill');
    expect(doubleqTaken('complete', null)?.decisive).toBe('finish');
  });
  test('the listing is on the routing descriptor', () => {
    expect(routingAlgorithm('doubleq')?.listing?.listing.lines.map((l) => l.id)).toContain('fairness');
  });
});
