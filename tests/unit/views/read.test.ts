import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSession } from '../../../src/worker/load';
import type { SessionDecision } from '../../../src/worker/session';
import { fmtCount, fmtNum, fmtPercent, fmtSeconds } from '../../../src/ui/views/format';
import { colorFor, colorVarFor, paletteSlot } from '../../../src/ui/views/palette';
import { readClients, readDrr, readDrrAt, readSeries, readWorkers } from '../../../src/ui/views/read';
import { leaderBand, rateOf } from '../../../src/ui/views/series-math';
import { burstScript, clusterSnapshot, sessionSnapshot } from './fixtures';

describe('palette', () => {
  test('one Okabe–Ito variable per index, wrapping after eight', () => {
    expect(colorFor(0)).toBe('var(--c0)');
    expect(colorFor(7)).toBe('var(--c7)');
    expect(colorFor(8)).toBe('var(--c0)');
    expect(colorFor(-1)).toBe('var(--c7)');
    expect(colorVarFor(10)).toBe('--c2');
    expect(paletteSlot(Number.NaN)).toBe(0);
  });
});

describe('format', () => {
  test('counts, numbers, seconds, percentages', () => {
    expect(fmtCount(12345)).toBe('12\u202f345');
    expect(fmtCount(-1000)).toBe('−1\u202f000');
    expect(fmtCount(null)).toBe('–');
    expect(fmtNum(0.125)).toBe('0.13');
    expect(fmtNum(2.5)).toBe('2.5');
    expect(fmtNum(426684)).toBe('427k');
    // Integer mantissas keep their zeros (an axis tick of 800 000 once read "8k").
    expect(fmtNum(800000)).toBe('800k');
    expect(fmtNum(20000)).toBe('20k');
    expect(fmtNum(1e6)).toBe('1M');
    expect(fmtNum(2.5e6)).toBe('2.5M');
    expect(fmtNum(100e6)).toBe('100M');
    expect(fmtNum(10.5)).toBe('10.5');
    // about three significant digits between 10 and 100 too (it printed '31.28')
    expect(fmtNum(31.28)).toBe('31.3');
    expect(fmtNum(99.96)).toBe('100');
    expect(fmtNum(3.128)).toBe('3.13');
    expect(fmtNum(0.1)).toBe('0.1');
    expect(fmtNum(Number.NaN)).toBe('–');
    expect(fmtSeconds(0.12)).toBe('120 ms');
    expect(fmtSeconds(3.25)).toBe('3.25 s');
    expect(fmtSeconds(125)).toBe('2 min 5 s');
    expect(fmtPercent(0.375)).toBe('38 %');
    expect(fmtPercent(0.002)).toBe('0.2 %');
  });
});

describe('readers', () => {
  test('the sandbox carries its DRR state in `drr`, queues and last pop included', () => {
    const snap = sessionSnapshot(burstScript(), 11);
    const m = readDrr(snap);
    expect(m?.classes.map((c) => [c.name, c.deficit, c.queued, c.head_cost, c.blocked])).toEqual([
      ['A', 1, 1, 3, false],
      ['B', 0, 4, 3, false],
    ]);
    expect(m?.queues.get('B')?.map((r) => r.id)).toEqual(['b0', 'b1', 'b2', 'b3']);
    expect(m?.queues.get('B')?.[0]).toMatchObject({ cost: 3, client: null, worker: -1, due_s: null });
    // the third pop (step 11) made the record; the sandbox shows no clock time for it
    expect(m?.record?.chosen?.id).toBe('a2');
    expect(m?.recordT).toBeNull();
    expect(snap.drr.last_pop?.t).toBe(11);
  });

  test('a cluster run ships the last pop’s full record (not rebuilt from the flattened detail)', () => {
    const text = readFileSync(join(__dirname, '../../../scenarios/default.yaml'), 'utf8');
    const loaded = loadSession(text);
    if (!loaded.ok) throw new Error('default scenario did not load');
    const s = loaded.session;
    const pops: SessionDecision[] = [];
    const take = (n: number) => {
      for (let i = 0; i < n; i++) {
        const d = s.step();
        if (d?.kind === 'drr-pop') pops.push(d);
      }
    };
    take(400);
    const m = readDrr(s.snapshot());
    // the engine may have recorded a few decisions of the current event that the session hands out next
    take(50);
    const pop = pops.find((d) => d.t === m?.recordT && d.summary.endsWith(m?.record?.summary ?? '?'));
    if (!pop) throw new Error('the snapshot’s last pop is none of the run’s pops');
    expect(m?.record?.chosen).toEqual({
      id: pop.request,
      class: pop.class,
      cost: pop.detail && 'cost' in pop.detail ? pop.detail.cost : -1,
    });
    // what the flattened detail cannot tell: where the cursor was before the pop
    expect(m?.record?.cursor_before).not.toBeNull();
    expect(m?.record?.heads_touched).toBeGreaterThan(0);
  });

  test('the hand-made cluster snapshot’s last pop', () => {
    const m = readDrr(clusterSnapshot());
    expect(m?.record?.bulk_rounds).toBe(4);
    expect(m?.record?.chosen).toEqual({ id: 'bob#0.0', class: 'latency', cost: 9000 });
    expect(m?.recordT).toBe(3.9);
  });

  test('inside an event, the pop at the playhead brings its own deficits, cursor, carry and record', () => {
    // the snapshot is after decision 12 (the event's last); the playhead is at decision 10, a pop
    const snap = { ...clusterSnapshot(), decisions: 10, state_decisions: 12 };
    const pop: SessionDecision = {
      seq: 9,
      t: 3.9,
      kind: 'drr-pop',
      summary:
        't=3.900 s  DRR pop: standard earns its quantum and can afford alice#3.0 (cost 700); standard keeps 300, carry standard, cursor latency',
      request: 'alice#3.0',
      class: 'standard',
      detail: {
        cost: 700,
        deficits: [
          { class: 'standard', before: 0, after: 300 },
          { class: 'latency', before: 0, after: 0 },
        ],
        cursor: 'latency',
        carry: 'standard',
        bulk_rounds: null,
        visits: [
          {
            phase: 'scan',
            class: 'standard',
            quantum: 1000,
            outcome: 'granted',
            head_id: 'alice#3.0',
            head_cost: 700,
            deficit_before: 0,
            deficit_after: 300,
          },
        ],
      },
    };
    const m = readDrrAt(snap, pop);
    expect(m?.popNo).toBe(10);
    expect(m?.stateAfter).toBe(12);
    expect(m?.carry).toBe('standard');
    expect(m?.classes.map((c) => [c.name, c.deficit, c.queued])).toEqual([
      ['standard', 300, 2],
      ['latency', 0, 0],
    ]);
    expect(m?.record?.summary).toBe(
      'standard earns its quantum and can afford alice#3.0 (cost 700); standard keeps 300, carry standard, cursor latency',
    );
    expect(m?.recordT).toBe(3.9);
    // not at the playhead (or not ahead): the snapshot's own state
    expect(readDrrAt(snap, { ...pop, seq: 8 })?.popNo).toBeNull();
    expect(readDrrAt(clusterSnapshot(), pop)?.popNo).toBeNull();
  });

  test('clients in declaration order with their colour index; series from `rows`', () => {
    const snap = clusterSnapshot();
    const clients = readClients(snap);
    expect(clients.map((c) => [c.name, c.index, c.deficit])).toEqual([
      ['alice', 0, 150],
      ['bob', 1, -50],
    ]);
    const s = readSeries(snap, clients);
    expect(s?.t).toEqual([0, 1, 2, 3, 4]);
    expect(s?.service[1]).toEqual([0, 100, 200, 300, 400]);
    expect(s?.queued?.[1]).toEqual([0, 2, 3, 4, 4]);
  });

  test("Jain's index is NaN (shown as n/a) where the engine's basis says it is only the convention (#15)", () => {
    const snap = clusterSnapshot();
    if (snap.kind !== 'cluster') throw new Error('cluster snapshot expected');
    const rows = {
      ...snap.series.rows,
      jain: [1, 1, 1, 0.5, 0.9],
      jain_clients: [1, 2, 2, 2, 2],
      jain_served: [1, 0, 2, 1, 2],
    };
    const s = readSeries({ ...snap, series: { ...snap.series, rows } }, readClients(snap));
    // one client; two but nobody served; a measured 1; one starved (a real 1/2); 0.9
    expect(s?.jain).toEqual([Number.NaN, Number.NaN, 1, 0.5, 0.9]);
  });

  test('workers: radix summary tuples [id, parent, tokens, lock]', () => {
    const [w0] = readWorkers(clusterSnapshot());
    expect(w0.radix.nodes).toEqual([
      { id: 1, parent: 0, tokens: 640, lock: 1 },
      { id: 2, parent: 1, tokens: 160, lock: 1 },
      { id: 3, parent: 1, tokens: 160, lock: 0 },
    ]);
    expect(w0.runningCount).toBe(2);
    expect(w0.waitingCount).toBe(1);
  });
});

describe('series math', () => {
  test('rates from cumulative curves', () => {
    expect(rateOf([0, 1, 2, 4], [0, 10, 30, 70], 1)).toEqual([Number.NaN, 10, 20, 20]);
  });

  test('the bound band hangs below the leader', () => {
    expect(
      leaderBand(
        [
          [0, 5, 9],
          [0, 7, 8],
        ],
        3,
      ),
    ).toEqual({ lo: [-3, 4, 6], hi: [0, 7, 9], label: '' });
    expect(leaderBand([[1]], 3)).toBeNull();
  });
});
