/**
 * The system view of the run's Jain's index beside the client view (tryout T1): read off the series
 * the Client service chart plots, over the run's own window (jain_run, the run JSON's jain_interval_s).
 */
import { describe, expect, it } from 'vitest';
import { diffRows, figuresOf } from '../../../src/ui/compare/diff';
import { fmtSystemJain, systemJain } from '../../../src/ui/views/jain-views';
import type { SimSnapshot } from '../../../src/worker/session';
import { clusterSnapshot } from './fixtures';

function snap(
  t: number[],
  service: Record<string, number[]>,
  run: { from: number; to: number; whole_run: boolean },
  injected: Record<string, number> = {},
): SimSnapshot {
  const base = clusterSnapshot();
  const template = base.clients.alice;
  const now = t[t.length - 1];
  return {
    ...base,
    sim_time_s: now,
    clients: Object.fromEntries(
      Object.entries(service).map(([name, s]) => [
        name,
        { ...template, service: s[s.length - 1], injected: injected[name] ?? 1 },
      ]),
    ),
    series: {
      t,
      rows: Object.fromEntries(Object.entries(service).map(([n, s]) => [`service:${n}`, s])),
      dt: 1,
    },
    jain_run: { index: 0.5, ...run, clients: 2, served: 2 },
  };
}

describe('systemJain', () => {
  it('is exactly the totals’ index when the window is the whole run to now', () => {
    const s = systemJain(
      snap([0, 1, 2], { a: [0, 10, 20], b: [0, 30, 60] }, { from: 0, to: 2, whole_run: true }),
    );
    // (20 + 60)² / (2 · (20² + 60²)) = 6400 / 8000
    expect(s).toEqual({ index: 0.8, exact: true });
    expect(fmtSystemJain(s ?? { index: 0, exact: false })).toBe('0.800');
  });

  it('takes each client’s service within the window, interpolated between samples, marked ≈', () => {
    // window 1–3, each end halfway between two samples: a 10 → 40, b 0 → 10
    const s = systemJain(
      snap([0, 2, 4, 5], { a: [0, 20, 60, 70], b: [0, 0, 20, 100] }, { from: 1, to: 3, whole_run: false }),
    );
    // a: 40 − 10 = 30; b: 10 − 0 = 10 → 1600 / (2 · 1000)
    expect(s?.index).toBeCloseTo(0.8, 12);
    expect(s?.exact).toBe(false);
    expect(fmtSystemJain(s ?? { index: 0, exact: true })).toBe('≈ 0.80');
  });

  it('compares only clients that have sent requests, and needs two of them with some service', () => {
    const three = snap(
      [0, 2],
      { a: [0, 20], b: [0, 20], idle: [0, 0] },
      { from: 0, to: 2, whole_run: true },
      { idle: 0 },
    );
    expect(systemJain(three)?.index).toBe(1);
    expect(
      systemJain(snap([0, 2], { a: [0, 20], b: [0, 0] }, { from: 0, to: 2, whole_run: true }, { b: 0 })),
    ).toBeNull();
    expect(
      systemJain(snap([0, 2], { a: [0, 0], b: [0, 0] }, { from: 0, to: 2, whole_run: true })),
    ).toBeNull();
  });
});

describe("Compare's Jain's index row", () => {
  it('names its view', () => {
    const f = figuresOf(clusterSnapshot());
    const row = diffRows(f, f).find((r) => r.key === 'jain');
    expect(row?.label).toBe("Jain's index, client view");
    expect(row?.title).toContain('client view');
  });
});
