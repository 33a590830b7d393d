import { describe, expect, it } from 'vitest';
import { MetricsCollector } from '../../../src/core/metrics/collector';
import { jainIndex } from '../../../src/core/metrics/jain';
import { nearestRank } from '../../../src/core/metrics/percentile';
import { DownsampledSeries } from '../../../src/core/metrics/series';

describe('nearest-rank percentiles', () => {
  it('picks the value at rank ceil(p·n)', () => {
    const xs = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(nearestRank(xs, 50)).toBe(5);
    expect(nearestRank(xs, 99)).toBe(10);
    expect(nearestRank(xs, 10)).toBe(1);
    expect(nearestRank(xs, 11)).toBe(2);
    expect(nearestRank(xs, 0)).toBe(1);
    expect(nearestRank([], 50)).toBeNull();
    expect(nearestRank([7], 99)).toBe(7);
  });
});

describe("Jain's index", () => {
  it('is 1 for equal rates and 1/n when one client gets everything', () => {
    expect(jainIndex([3, 3, 3])).toBe(1);
    expect(jainIndex([4, 0, 0, 0])).toBe(0.25);
    expect(jainIndex([1, 3])).toBeCloseTo(16 / 20, 12);
    expect(jainIndex([])).toBe(1);
  });
});

describe('metrics collector', () => {
  it('computes service with the scenario weights and Jain over the all-active interval', () => {
    const m = new MetricsCollector(['a', 'b'], { input: 1, output: 2 });
    m.onSubmit(0, 0);
    m.onAdmit(0, 0, 100, 40);
    m.onService(0, 60, 1); // 60 + 2
    m.onSubmit(1, 1); // all active from t=1; a has 62 already
    m.onAdmit(1, 1, 10, 0);
    m.onService(0, 0, 10); // a: +20 -> 82
    m.onService(1, 10, 5); // b: +20 -> 20
    m.flushStep(2);
    m.onComplete(0, 3, 0, 0.5, 11);
    m.onComplete(1, 4, 1, 1.5, 5);
    expect(Array.from(m.service)).toEqual([82, 20]);
    expect(m.cacheHitRate()).toBeCloseTo(40 / 110, 12);
    // interval [1, 3]: a earned 20, b earned 20 (b's service at a's last completion)
    const j = m.jain(4, 'system');
    expect(j.whole_run).toBe(false);
    expect(j.from).toBe(1);
    expect(j.to).toBe(3);
    expect(j.index).toBe(1);
    const row = m.clientRow(0, 4);
    expect(row.ttft_p50_s).toBe(0.5);
    expect(row.e2e_p99_s).toBe(3);
    expect(row.itl_p50_s).toBeCloseTo(0.25, 12);
  });
});

describe('downsampled series', () => {
  it('keeps at most `capacity` evenly spaced points and doubles its step when full', () => {
    const s = new DownsampledSeries(['x'], 8, 1);
    for (let t = 0; t < 100; t += 0.25) s.sample(t, [t]);
    const snap = s.snapshot();
    expect(snap.t.length).toBeLessThanOrEqual(8);
    expect(snap.t.length).toBeGreaterThanOrEqual(4);
    expect(snap.rows.x).toEqual(snap.t);
    const gaps = snap.t.slice(1).map((t, i) => t - snap.t[i]);
    expect(new Set(gaps.slice(0, -1)).size).toBe(1);
    expect(snap.dt).toBe(16);
  });
});
