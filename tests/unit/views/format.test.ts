import { describe, expect, test } from 'vitest';
import { type DiffRow, fmtRow } from '../../../src/ui/compare/diff';
import {
  fmtCount,
  fmtExact,
  fmtNum,
  fmtPair,
  fmtPercent,
  fmtPercentDelta,
  percentColumn,
  fmtSeconds,
  fmtStepMs,
  secondsColumn,
  secondsColumnUnit,
  setFormatter,
  tickFormatter,
} from '../../../src/ui/views/format';

const M = '\u2212'; // the minus sign
const G = '\u202f'; // the thousands group

function row(key: string, unit: string, a: number, b: number): DiffRow {
  return { key, label: key, unit, client: null, a, b, delta: b - a };
}

describe('one number format', () => {
  test("a formula's numbers keep every digit, grouped, with up to three decimals (fmtExact)", () => {
    expect(fmtExact(252_114)).toBe(`252${G}114`);
    expect(fmtExact(12_600.5)).toBe(`12${G}600.5`);
    expect(fmtExact(0.25)).toBe('0.25');
    expect(fmtExact(2 / 3)).toBe('0.667');
    expect(fmtExact(-4800)).toBe(`${M}4${G}800`);
    expect(fmtExact(1e-9)).toBe('0');
    expect(fmtExact(Number.NaN)).toBe('–');
  });

  test('negative numbers carry U+2212, never the hyphen', () => {
    expect(fmtNum(-48.37)).toBe(`${M}48.4`);
    expect(fmtNum(-0.002)).toBe(`${M}0.002`);
    expect(fmtCount(-7832)).toBe(`${M}7${G}832`);
    expect(fmtSeconds(-3.43)).toBe(`${M}3.43 s`);
    expect(fmtSeconds(-0.0272)).toBe(`${M}27.2 ms`);
    expect(fmtSeconds(-125)).toBe(`${M}2 min 5 s`);
    expect(fmtPercent(-0.034)).toBe(`${M}3.4 %`);
    expect(fmtPercent(-0.15)).toBe(`${M}15 %`);
    for (const s of [fmtNum(-1e5), fmtSeconds(-2), fmtPercent(-0.5), fmtPercentDelta(-0.01)])
      expect(s).not.toMatch(/-/);
  });

  test("a column of durations shares one unit and one number of decimals (the latency table's)", () => {
    // the report: "31.28 ms" printed next to "27.1 ms" (fmtSeconds each on its own)
    const ms = secondsColumn([0.03128, 0.0271, 0.004, null]);
    expect([0.03128, 0.0271, 0.004].map(ms)).toEqual(['31.3 ms', '27.1 ms', '4.0 ms']);
    expect(ms(null)).toBe('–');
    const big = secondsColumn([0.212, 0.5]);
    expect([0.212, 0.5, 0.0004].map(big)).toEqual(['212 ms', '500 ms', '0 ms']);
    const s = secondsColumn([0.86, 3.26, 12.4]);
    expect([0.86, 3.26, 12.4].map(s)).toEqual(['0.9 s', '3.3 s', '12.4 s']);
    expect(secondsColumn([0.5, 2])(0.5)).toBe('0.50 s');
    expect(secondsColumn([1500])(125)).toBe('2 min 5 s');
    expect(secondsColumn([])(0)).toBe('0 ms');
    // every value of a column has as many decimals as the others
    const decimals = (t: string) => t.match(/\.(\d+)/)?.[1].length ?? 0;
    const col = [0.0123, 0.0456, 0.0999, 0.001].map(secondsColumn([0.0123, 0.0456, 0.0999, 0.001]));
    expect(new Set(col.map(decimals)).size).toBe(1);
  });

  test('a value that prints as zero has no sign', () => {
    expect(fmtPercent(0.00001, { signed: true })).toBe('0.0 %');
    expect(fmtPercent(-0.00001)).toBe('0.0 %');
    expect(fmtNum(-1e-13)).toBe('0');
    expect(fmtNum(-0)).toBe('0');
    expect(fmtSeconds(0, { signed: true })).toBe('0 ms');
    expect(fmtSeconds(-1e-16)).toBe('0 ms');
    expect(fmtCount(-0.0000000001)).toBe('0');
    expect(fmtNum(22, { signed: true })).toBe('+22');
    expect(fmtCount(5435, { signed: true })).toBe(`+5${G}435`);
    expect(fmtSeconds(0.233, { signed: true })).toBe('+233 ms');
    expect(fmtPercentDelta(0.007)).toBe('+0.7 pp');
    expect(fmtPercentDelta(-0.00003)).toBe(`${M}0.003 pp`);
  });

  test('one thousands separator, k/M/G from 10 000', () => {
    expect(fmtNum(5000)).toBe(`5${G}000`);
    expect(fmtNum(12345)).toBe('12.3k');
    expect(fmtNum(995096)).toBe('995k');
    expect(fmtNum(1000531)).toBe('1M');
    expect(fmtNum(2.5e9)).toBe('2.5G');
  });

  test("a set read as one list (a sweep's values) shares one unit, the smallest value's, each value exact", () => {
    const g = '\u202f';
    const a = setFormatter([2000, 5030, 12600, 18300, 80000]);
    expect([2000, 18300, 80000].map(a)).toEqual([`2${g}000`, `18${g}300`, `80${g}000`]);
    const b = setFormatter([12600, 31800, 80000]);
    expect([12600, 31800, 80000].map(b)).toEqual(['12.6k', '31.8k', '80k']);
    const c = setFormatter([0, 0.5, 8]);
    expect([0, 0.5, 8].map(c)).toEqual(['0', '0.5', '8']);
    const d = setFormatter([100000, 2000000]);
    expect([100000, 2000000].map(d)).toEqual(['100k', `2${g}000k`]);
    expect(setFormatter([-20000, 45000])(-20000)).toBe('\u221220k');
  });

  test('a pair read side by side shares its scale and differs when the values do', () => {
    // the tester's "995k" against "1M" for a +5 435 difference
    expect(fmtPair(995096, 1000531)).toEqual(['0.995M', '1.001M']);
    // "16k" against "16k" for a −22 difference
    expect(fmtPair(15978, 15956)).toEqual(['15.98k', '15.96k']);
    expect(fmtPair(21000, 20900)).toEqual(['21.0k', '20.9k']);
    expect(fmtPair(21000, 20951.6)).toEqual(['21.00k', '20.95k']);
    expect(fmtPair(1.481, 1.484, 's')).toEqual(['1.481 s', '1.484 s']);
    expect(fmtPair(0.491, 0.488, 's')).toEqual(['491 ms', '488 ms']);
    expect(fmtPair(0.021, 0.028, '%')).toEqual(['2.1 %', '2.8 %']);
    expect(fmtPair(0.394, 0.392, { decimals: 3 })).toEqual(['0.394', '0.392']);
    expect(fmtPair(0.3941, 0.3942, { decimals: 3 })).toEqual(['0.3941', '0.3942']);
    expect(fmtPair(1234, 1234)).toEqual([`1${G}234`, `1${G}234`]);
    expect(fmtPair(-12000, 15000)).toEqual([`${M}12.0k`, '15.0k']);
    expect(fmtPair(null, 3)).toEqual(['–', '3']);
    // any two different values at the usual magnitudes print differently
    for (const [a, b] of [
      [1e6, 1e6 + 1000],
      [99999, 100001],
      [10.001, 10.002],
      [0.5001, 0.5002],
    ] as const)
      expect(new Set(fmtPair(a, b)).size).toBe(2);
  });

  test('a column of percentages shares one number of decimals (Class service: 0.9 % stood above 14 %)', () => {
    const col = percentColumn([0.009, 0.14, null, 0]);
    expect([0.009, 0.14, 0, null].map(col)).toEqual(['0.9 %', '14.0 %', '0.0 %', '–']);
    const whole = percentColumn([0.25, 0.75, 0]);
    expect([0.25, 0.75, 0].map(whole)).toEqual(['25 %', '75 %', '0 %']);
    expect(percentColumn([])(0.5)).toBe('50 %');
  });

  test("the Difference table's rows", () => {
    expect(fmtRow(row('service:mallory', 'units', 995096, 1000531))).toEqual({
      a: '0.995M',
      b: '1.001M',
      delta: `+5${G}435`,
    });
    expect(fmtRow(row('throughput', 'units/s', 21000, 20951.63))).toEqual({
      a: '21.00k',
      b: '20.95k',
      delta: `${M}48.4`,
    });
    expect(fmtRow(row('jain', '', 0.394, 0.392)).delta).toBe(`${M}0.002`);
    expect(fmtRow(row('e2e', 's', 10.6, 7.17)).delta).toBe(`${M}3.43 s`);
    expect(fmtRow(row('cache', '', 0.021, 0.028)).delta).toBe('+0.7 pp');
    // float noise between two sums of the same figure is no difference
    expect(fmtRow(row('cache', '', 0.1 + 0.2, 0.3)).delta).toBe('0 pp');
    expect(fmtRow(row('ttft', 's', 1.48, 1.48)).delta).toBe('0 ms');
  });

  test('a difference of two percentages is in percentage points, in every percentage row (tester p51)', () => {
    // the tester's cache hit rates, default (dlpm) against fcfs: 6.6 % → 4.7 % is −1.86 points, not −1.86 %
    expect(fmtRow(row('cache', '', 0.06585475868290483, 0.04724000436011891))).toEqual({
      a: '6.6 %',
      b: '4.7 %',
      delta: `${M}1.86 pp`,
    });
    // a class's share of uncached tokens (unit '%') likewise
    expect(fmtRow(row('class-share:free', '%', 0.25, 0.4))).toEqual({
      a: '25 %',
      b: '40 %',
      delta: '+15 pp',
    });
    // the A and B cells keep their percent sign; only B − A is in points
    for (const r of [row('cache', '', 0.5, 0.25), row('class-share:x', '%', 0.1, 0.2)]) {
      const f = fmtRow(r);
      expect([f.a, f.b].every((c) => c.endsWith(' %'))).toBe(true);
      expect(f.delta).toMatch(/ pp$/);
      expect(f.delta).not.toMatch(/%/);
    }
  });

  test('an axis has one suffix and one number of decimals', () => {
    const diff = tickFormatter([-10000, -5000, 0, 5000, 10000, 15000]);
    expect([-10000, -5000, 0, 5000, 15000].map(diff)).toEqual([`${M}10k`, `${M}5k`, '0', '5k', '15k']);
    const sweep = tickFormatter([0, 2000, 4000, 6000, 8000, 10000]);
    expect([0, 2000, 10000].map(sweep)).toEqual(['0', '2k', '10k']);
    const small = tickFormatter([0, 2000, 4000, 6000, 8000]);
    expect(small(6000)).toBe(`6${G}000`);
    const unit = tickFormatter([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect([0, 0.2, 1].map(unit)).toEqual(['0.0', '0.2', '1.0']);
    const narrow = tickFormatter([0.519, 0.52, 0.521, 0.522]);
    expect([0.519, 0.52].map(narrow)).toEqual(['0.519', '0.520']);
    const big = tickFormatter([0, 200000, 400000, 1000000]);
    expect([0, 200000, 1000000].map(big)).toEqual(['0', '0.2M', '1.0M']);
    const log = tickFormatter([1000, 10000]);
    expect([1000, 10000].map(log)).toEqual(['1k', '10k']);
    for (const t of [-0.2, -5000]) expect(unit(t) + diff(t)).not.toMatch(/-/);
  });
});

describe('fmtStepMs (tryout L1)', () => {
  test('ms below a second, seconds from one second, as fmtSeconds', () => {
    expect(fmtStepMs(11.3)).toBe('11.3 ms');
    expect(fmtStepMs(15_600)).toBe('15.6 s');
    expect(fmtStepMs(12_751.41)).toBe('12.8 s');
    expect(fmtStepMs(1_000)).toBe('1.00 s');
    // 999.6 ms rounds to 1 000 ms: that is a second
    expect(fmtStepMs(999.6)).toBe('1.00 s');
    expect(fmtStepMs(null)).toBe('–');
  });
});

describe('secondsColumnUnit (tryout T5)', () => {
  test("the unit secondsColumn prints the column's cells in, in words", () => {
    for (const [values, unit] of [
      [[0.12, 0.4], 'milliseconds'],
      [[1.5, 3.25, null], 'seconds'],
      [[460, 873], 'minutes and seconds'],
    ] as const) {
      expect(secondsColumnUnit(values)).toBe(unit);
      const cell = secondsColumn(values)(values[1]);
      expect(cell).toMatch(unit === 'milliseconds' ? / ms$/ : unit === 'seconds' ? /\d s$/ : / min \d+ s$/);
    }
  });
});
