/**
 * The Difference panel's numbers: the figures of runs A and B at the same simulated moment (or each
 * at its own end once one run is over), their differences, and the lines of the chart over time. The
 * table's Jain's index is the run's, as run --json gives it (`jain_run`). The chart's service,
 * service rate, Jain's index (since every client's first request) and cache hit rate come from each
 * snapshot's `series` (each run's on the union of both runs' times, so the chart covers the longer
 * run's whole time); latency percentiles are cumulative figures
 * of the snapshot, so their curves are sampled at each synchronised moment (`Sample`). Pure functions.
 */
import type { ChartLine } from '../views/TimeChart';
import type { SessionSnapshot } from '../../worker/session';
import type { SandboxDispatch } from '../../core/snapshot';
import { type ClientModel, clusterOf, readClients, readDrr, readSeries, simTime } from '../views/read';
import { fmtNum, fmtPair, fmtPercentDelta, fmtSeconds, type PairKind } from '../views/format';
import { jainMeaningful, runJainWindow } from '../../core/metrics/jain';
import { totalServiceRate } from '../views/series-math';
import { readClassService } from '../views/class-service-read';

/** Linear interpolation of (tSrc, vSrc) at each of `tAt`; NaN outside tSrc's range (tSrc ascending). */
export function interpolateOnto(
  tAt: readonly number[],
  tSrc: readonly number[],
  vSrc: readonly number[],
): number[] {
  const n = tSrc.length;
  return tAt.map((t) => {
    if (n === 0 || !Number.isFinite(t) || t < tSrc[0] || t > tSrc[n - 1]) return Number.NaN;
    // Last index with tSrc[lo] <= t.
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tSrc[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    const v0 = vSrc[lo] ?? Number.NaN;
    if (tSrc[lo] === t || lo === n - 1) return v0;
    const v1 = vSrc[lo + 1] ?? Number.NaN;
    const t0 = tSrc[lo];
    const t1 = tSrc[lo + 1];
    return t1 > t0 ? v0 + ((v1 - v0) * (t - t0)) / (t1 - t0) : v1;
  });
}

/** Headline figures of one run now. */
export interface RunFigures {
  t: number | null;
  clients: ClientModel[];
  /** Service units per simulated second since t = 0 (all clients). */
  throughput: number | null;
  cacheHit: number | null;
  /**
   * The run's Jain's index as run --json gives it (`jain_index`: the snapshot's `jain_run`, over its
   * own window); null also when it is not meaningful now (`jainNa`).
   */
  jain: number | null;
  /** The index exists but says nothing (core/metrics/jain.ts jainMeaningful): shown as n/a. */
  jainNa: boolean;
  /** Where that index is measured, e.g. `over 10.4–85.9 s` (null without one). */
  jainWindow: string | null;
}

export function figuresOf(snapshot: SessionSnapshot | null): RunFigures {
  const clients = readClients(snapshot);
  // the engine's own run index (core/metrics), never recomputed here: the figure Figures shows as
  // "run" and run --json prints as jain_index, not the series' "since every client's first request"
  const jainRun = clusterOf(snapshot)?.jain_run ?? null;
  const meaningful = jainRun !== null && jainMeaningful(jainRun);
  const t = simTime(snapshot);
  let total = 0;
  for (const c of clients) total += c.service;
  const any = clients.length > 0;
  return {
    t,
    clients,
    throughput: any && t !== null && t > 0 ? total / t : null,
    cacheHit: clusterOf(snapshot)?.cache_hit_rate ?? null,
    jain: meaningful ? jainRun.index : null,
    jainNa: jainRun !== null && !meaningful,
    jainWindow: jainRun !== null ? runJainWindow(jainRun) : null,
  };
}

export interface DiffRow {
  key: string;
  label: string;
  unit: string;
  /** The client a row is about (for its colour), if any. */
  client: string | null;
  a: number | null;
  b: number | null;
  /** b − a when both are known. */
  delta: number | null;
  /** A's or B's value is not meaningful now (Jain's index): shown as n/a, not as a number. */
  naA?: boolean;
  naB?: boolean;
  /** Which figure this is, printed after the label (e.g. `as run --json`), with a longer `title`. */
  note?: string;
  title?: string;
}

function row(
  key: string,
  label: string,
  unit: string,
  client: string | null,
  a: number | null,
  b: number | null,
): DiffRow {
  return { key, label, unit, client, a, b, delta: a !== null && b !== null ? b - a : null };
}

/** Clients of both runs: A's order first, then any only B has. */
export function clientNames(a: readonly ClientModel[], b: readonly ClientModel[]): string[] {
  const names = a.map((c) => c.name);
  for (const c of b) if (!names.includes(c.name)) names.push(c.name);
  return names;
}

const PER_CLIENT: [string, string, string, (c: ClientModel) => number | null][] = [
  ['service', 'service', 'units', (c) => c.service],
  ['ttft50', 'TTFT p50', 's', (c) => c.ttftP50],
  ['ttft99', 'TTFT p99', 's', (c) => c.ttftP99],
  ['e2e50', 'e2e p50', 's', (c) => c.e2eP50],
  ['e2e99', 'e2e p99', 's', (c) => c.e2eP99],
];

/** The table: run-wide figures first, then each client's service and latencies. */
export function diffRows(a: RunFigures, b: RunFigures): DiffRow[] {
  const rows: DiffRow[] = [
    row('throughput', 'service rate', 'units/s', null, a.throughput, b.throughput),
    row('cache', 'cache hit rate', '', null, a.cacheHit, b.cacheHit),
    {
      ...row('jain', "Jain's index, client view", '', null, a.jain, b.jain),
      naA: a.jainNa,
      naB: b.jainNa,
      note: 'as run --json',
      title: `The run's jain_index as run --json and Figures ("run") give it, client view (w_e per prompt token, cached or not, plus w_q per output token, each once; the CLI's system view, jain_index_extend, counts computed tokens instead, as the service rows here do): client service rates from the last client's first request to the first client's last completion (A ${a.jainWindow ?? 'n/a'}, B ${b.jainWindow ?? 'n/a'}). The chart's index is measured since every client's first request instead.`,
    },
  ];
  for (const [key, label, unit, get] of PER_CLIENT)
    for (const name of clientNames(a.clients, b.clients)) {
      const ca = a.clients.find((c) => c.name === name);
      const cb = b.clients.find((c) => c.name === name);
      rows.push(
        row(`${key}:${name}`, `${name} ${label}`, unit, name, ca ? get(ca) : null, cb ? get(cb) : null),
      );
    }
  return rows;
}

/**
 * Per policy class (runs with policy-class queues): the share of served uncached tokens, the tokens
 * and the rejections (HTTP 529) in A and B, for classes that saw requests in either run, so two
 * policies can be compared on the same traffic; the requests shed for a passed due time (HTTP 429)
 * too when either run shed any.
 */
export function classRows(snapA: SessionSnapshot | null, snapB: SessionSnapshot | null): DiffRow[] {
  const a = readClassService(snapA)?.classes ?? [];
  const b = readClassService(snapB)?.classes ?? [];
  const used = (c: { dispatched: number; rejected: number; shed: number; queued: number }) =>
    c.dispatched + c.rejected + c.shed + c.queued > 0;
  const shed = [...a, ...b].some((c) => c.shed > 0);
  const names: string[] = [];
  for (const c of [...a, ...b]) if (used(c) && !names.includes(c.name)) names.push(c.name);
  const rows: DiffRow[] = [];
  for (const [key, label, unit, get] of [
    ['class-share', 'share of uncached tokens', '%', (c: ClassServiceRowView) => c.share],
    [
      'class-served',
      'uncached tokens served',
      'tokens',
      (c: ClassServiceRowView) => c.served_uncached_tokens,
    ],
    ['class-rejected', 'rejected (529)', 'requests', (c: ClassServiceRowView) => c.rejected],
    ...(shed
      ? ([
          ['class-shed', 'shed, due time passed (429)', 'requests', (c: ClassServiceRowView) => c.shed],
        ] as const)
      : []),
  ] as const)
    for (const name of names) {
      const ca = a.find((c) => c.name === name);
      const cb = b.find((c) => c.name === name);
      rows.push(
        row(`${key}:${name}`, `class ${name} ${label}`, unit, null, ca ? get(ca) : null, cb ? get(cb) : null),
      );
    }
  return rows;
}

type ClassServiceRowView = {
  share: number;
  served_uncached_tokens: number;
  rejected: number;
  shed: number;
};

/**
 * The DRR sandbox's table (no clients or service there): each class's requests taken so far, deficit
 * and queue in A and B. (Deficits and queues are often 0 in both at a script's end; what differs is
 * who was served: the taken rows and `dispatchDifference`.)
 */
export function drrRows(snapA: SessionSnapshot | null, snapB: SessionSnapshot | null): DiffRow[] {
  const a = readDrr(snapA)?.classes ?? [];
  const b = readDrr(snapB)?.classes ?? [];
  const names = a.map((c) => c.name);
  for (const c of b) if (!names.includes(c.name)) names.push(c.name);
  const rows: DiffRow[] = [];
  const takenA = dispatchOf(snapA)?.taken;
  const takenB = dispatchOf(snapB)?.taken;
  if (takenA !== undefined || takenB !== undefined)
    for (const name of names)
      rows.push(
        row(
          `taken:${name}`,
          `${name} taken`,
          'requests',
          null,
          takenA === undefined ? null : (takenA[name] ?? 0),
          takenB === undefined ? null : (takenB[name] ?? 0),
        ),
      );
  for (const [key, label, get] of [
    ['deficit', 'deficit', (c: { deficit: number }) => c.deficit],
    ['queued', 'queued', (c: { queued: number }) => c.queued],
  ] as const)
    for (const name of names) {
      const ca = a.find((c) => c.name === name);
      const cb = b.find((c) => c.name === name);
      rows.push(
        row(
          `${key}:${name}`,
          `${name} ${label}`,
          key === 'deficit' ? 'tokens' : '',
          null,
          ca ? get(ca) : null,
          cb ? get(cb) : null,
        ),
      );
    }
  return rows;
}

function dispatchOf(snap: SessionSnapshot | null): SandboxDispatch | undefined {
  return snap?.kind === 'arbitration' ? snap.dispatch : undefined;
}

/**
 * Where the two sandbox runs first served differently, in words: the first pop (counting pops that
 * took a request) whose request differs, or that the first n are the same. Null when either run has
 * no record yet.
 */
export function dispatchDifference(
  snapA: SessionSnapshot | null,
  snapB: SessionSnapshot | null,
): string | null {
  const a = dispatchOf(snapA);
  const b = dispatchOf(snapB);
  if (a === undefined || b === undefined) return null;
  const n = Math.min(a.first.length, b.first.length);
  for (let i = 0; i < n; i++) {
    const x = a.first[i];
    const y = b.first[i];
    if (x.id !== y.id)
      return `They first serve differently at take ${i + 1}: run A takes ${x.id} (class ${x.class}), run B takes ${y.id} (class ${y.class}).`;
  }
  if (n === 0) return 'Neither has taken a request yet.';
  const kept = Math.min(a.pops, b.pops);
  if (a.first.length === b.first.length && a.pops === b.pops)
    return `Both took the same ${fmtNum(a.pops)} request${a.pops === 1 ? '' : 's'} in the same order so far.`;
  return `The first ${fmtNum(n)} request${n === 1 ? '' : 's'} taken are the same in both${
    kept > n ? ' (later ones are not compared)' : ''
  }; run ${a.pops > b.pops ? 'A' : 'B'} has taken more so far.`;
}

// ---- over time ---------------------------------------------------------------------------------------

/** One synchronised moment of both runs: the figures that have no series of their own (latency percentiles). */
export interface Sample {
  t: number;
  a: SampleFigures;
  b: SampleFigures;
}

export interface SampleFigures {
  ttftP99: Record<string, number | null>;
  e2eP99: Record<string, number | null>;
}

function sampleFigures(f: RunFigures): SampleFigures {
  const ttftP99: Record<string, number | null> = {};
  const e2eP99: Record<string, number | null> = {};
  for (const c of f.clients) {
    ttftP99[c.name] = c.ttftP99;
    e2eP99[c.name] = c.e2eP99;
  }
  return { ttftP99, e2eP99 };
}

export function sampleOf(t: number, a: RunFigures, b: RunFigures): Sample {
  return { t, a: sampleFigures(a), b: sampleFigures(b) };
}

/** Most samples kept; beyond it every other one is dropped (the curve keeps its shape). */
export const SAMPLE_CAP = 1200;

/** Adds a sample, first dropping any at or after its time (the playhead went back or stayed). */
export function addSample(history: readonly Sample[], s: Sample, cap = SAMPLE_CAP): Sample[] {
  let kept = history.filter((x) => x.t < s.t);
  if (kept.length + 1 > cap) kept = kept.filter((_, i) => i % 2 === 1);
  return [...kept, s];
}

export type ChartMetric = 'service' | 'throughput' | 'jain' | 'cache' | 'ttft' | 'e2e';

export const CHART_METRICS: { id: ChartMetric; label: string }[] = [
  { id: 'service', label: 'Service per client, B − A' },
  { id: 'throughput', label: 'Service rate, A and B' },
  { id: 'jain', label: "Jain's index (client view) since every client's first request, A and B" },
  { id: 'cache', label: 'Cache hit rate, A and B' },
  { id: 'ttft', label: 'TTFT p99 per client, B − A' },
  { id: 'e2e', label: 'e2e p99 per client, B − A' },
];

export interface ChartData {
  t: number[];
  lines: ChartLine[];
  yLabel: string;
  yDomain?: [number, number];
  /** Whether lines are B − A per client (a zero line matters) or A and B side by side. */
  kind: 'delta' | 'pair';
}

const A_COLOR = 0;
const B_COLOR = 1;

function pair(t: number[], a: number[], b: number[], yLabel: string, yDomain?: [number, number]): ChartData {
  return {
    t,
    lines: [
      { key: 'A', label: 'A', colorIndex: A_COLOR, values: a },
      { key: 'B', label: 'B', colorIndex: B_COLOR, values: b, dashed: true },
    ],
    yLabel,
    kind: 'pair',
    ...(yDomain ? { yDomain } : {}),
  };
}

/** Whether each run is over (its figures final), for the part of the chart past its end. */
export interface RunsOver {
  a: boolean;
  b: boolean;
}

/**
 * The chart's time axis: A's sample times, then B's beyond A's last one (B plays on to its own end
 * after A's, and the other way round A's samples already cover B's end).
 */
export function unionTimes(tA: readonly number[], tB: readonly number[]): number[] {
  const lastA = tA.length > 0 ? tA[tA.length - 1] : Number.NEGATIVE_INFINITY;
  return [...tA, ...tB.filter((x) => x > lastA)];
}

/**
 * A run's series on the chart's times: interpolated within its own range, NaN beyond (its line ends
 * where its run is), or, with `hold` (a cumulative figure of a run that is over), its final value.
 */
function onto(t: readonly number[], tSrc: readonly number[], v: readonly number[], hold: boolean): number[] {
  const out = interpolateOnto(t, tSrc, v);
  if (!hold || tSrc.length === 0) return out;
  const end = tSrc[tSrc.length - 1];
  const last = v[tSrc.length - 1] ?? Number.NaN;
  return out.map((x, i) => (t[i] > end ? last : x));
}

/**
 * The chart's lines for a metric, over both runs' whole time: each run's series on the union of their
 * sample times. A line of a run that ended ends there (A and B side by side); B − A of cumulative
 * service past one run's end takes that run's final figures (`over`: which runs are over).
 */
export function chartData(
  metric: ChartMetric,
  snapA: SessionSnapshot | null,
  snapB: SessionSnapshot | null,
  history: readonly Sample[],
  over: RunsOver = { a: false, b: false },
): ChartData | null {
  const ca = readClients(snapA);
  const cb = readClients(snapB);
  const names = clientNames(ca, cb);
  if (metric !== 'ttft' && metric !== 'e2e') {
    const sa = readSeries(snapA, ca);
    const sb = readSeries(snapB, cb);
    if (!sa || !sb) return null;
    const t = unionTimes(sa.t, sb.t);
    const onA = (v: number[], hold = false) => onto(t, sa.t, v, hold);
    const onB = (v: number[], hold = false) => onto(t, sb.t, v, hold);
    if (metric === 'cache')
      return sa.cacheHit && sb.cacheHit
        ? pair(t, onA(sa.cacheHit), onB(sb.cacheHit), 'cache hit rate', [0, 1])
        : null;
    if (metric === 'throughput')
      return pair(t, onA(totalServiceRate(sa)), onB(totalServiceRate(sb)), 'service units/s');
    if (metric === 'jain')
      return sa.jain && sb.jain
        ? pair(t, onA(sa.jain), onB(sb.jain), "Jain's index, client view", [0, 1])
        : null;
    const lines: ChartLine[] = names.map((name, i) => {
      const ia = ca.findIndex((c) => c.name === name);
      const ib = cb.findIndex((c) => c.name === name);
      const va = ia >= 0 ? onA(sa.service[ia], over.a) : [];
      const vb = ib >= 0 ? onB(sb.service[ib], over.b) : [];
      return {
        key: name,
        label: name,
        colorIndex: i,
        values: t.map((_, k) => (vb[k] ?? Number.NaN) - (va[k] ?? Number.NaN)),
      };
    });
    return { t, lines, yLabel: 'service B − A (units)', kind: 'delta' };
  }
  if (history.length === 0) return null;
  const t = history.map((s) => s.t);
  const val = (v: number | null | undefined) => (v === null || v === undefined ? Number.NaN : v);
  const pick = metric === 'ttft' ? 'ttftP99' : 'e2eP99';
  const lines: ChartLine[] = names.map((name, i) => ({
    key: name,
    label: name,
    colorIndex: i,
    values: history.map((s) => val(s.b[pick][name]) - val(s.a[pick][name])),
  }));
  return { t, lines, yLabel: `${metric === 'ttft' ? 'TTFT' : 'e2e'} p99 B − A (s)`, kind: 'delta' };
}

/** A row's A, B and B − A as printed: A and B share one scale and enough digits to differ when they do. */
export function fmtRow(row: DiffRow): { a: string; b: string; delta: string } {
  const kind: PairKind =
    row.unit === 's'
      ? 's'
      : row.key === 'cache' || row.unit === '%'
        ? '%'
        : row.key === 'jain'
          ? { decimals: 3 }
          : 'num';
  const [a, b] = fmtPair(row.a, row.b, kind);
  // B − A computed from two separately summed figures: float noise far below any printed digit is 0
  const scale = Math.max(Math.abs(row.a ?? 0), Math.abs(row.b ?? 0), 1e-300);
  const d = row.delta !== null && Math.abs(row.delta) < 1e-9 * scale ? 0 : row.delta;
  const delta =
    kind === 's'
      ? fmtSeconds(d, { signed: true })
      : kind === '%'
        ? fmtPercentDelta(d)
        : fmtNum(d, { signed: true });
  return { a, b, delta };
}

/** One run's clock for the Difference panel's heading: its simulated time and whether it is over. */
export interface RunClock {
  t: number | null;
  done: boolean;
}

/**
 * What moment the Difference panel shows, in words: the one moment both runs are at, or each run's
 * end once one is over (the run that ended stays there while the other goes on). `note` says whose
 * figures are final and whose are not yet (null while both run at the same moment). `sandbox`: the
 * clock counts steps (the DRR sandbox), not seconds.
 */
export function diffMoment(
  a: RunClock,
  b: RunClock,
  sandbox = false,
): { heading: string; note: string | null } {
  const at = (t: number | null) => (sandbox ? `step ${fmtNum(t)}` : `${t === null ? '–' : t.toFixed(3)} s`);
  const same = sandbox ? `at step ${fmtNum(a.t ?? b.t)}` : `at t = ${fmtNum(a.t ?? b.t)} s`;
  if (a.done && b.done)
    return {
      heading: 'at the end of both runs',
      note: `Both runs are over: A ended at ${at(a.t)}, B at ${at(b.t)}. Every figure is its run's final one.`,
    };
  if (a.done)
    return {
      heading: `A at its end, B at ${at(b.t)}`,
      note: `Run A ended at ${at(a.t)} and stays at its end; B goes on, so B's figures are not final yet: Play or Step runs B to its end.`,
    };
  if (b.done && b.t !== a.t)
    return {
      heading: `A at ${at(a.t)}, B at its end`,
      note: `Run B ended at ${at(b.t)} and stays at its end while A goes on, so A's figures are not final yet.`,
    };
  return { heading: same, note: null };
}

/**
 * What the chart shows past the end of the run that ended first, in words (null while neither run
 * has ended before the chart's last moment `tMax`): side by side, that run's line stops at its end;
 * B − A takes its final figures from there on.
 */
export function chartEndNote(kind: 'delta' | 'pair', a: RunClock, b: RunClock, tMax: number): string | null {
  const first =
    a.done && a.t !== null && a.t < tMax ? 'A' : b.done && b.t !== null && b.t < tMax ? 'B' : null;
  if (first === null) return null;
  const end = (first === 'A' ? a.t : b.t) as number;
  const other = first === 'A' ? 'B' : 'A';
  const otherClock = first === 'A' ? b : a;
  const at = `t = ${end.toFixed(3)} s`;
  const goesOn =
    otherClock.t === null
      ? `${other}'s goes on`
      : otherClock.done
        ? `${other}'s goes on to ${other}'s end (${otherClock.t.toFixed(3)} s)`
        : `${other}'s goes on (${other} is at ${otherClock.t.toFixed(3)} s)`;
  return kind === 'pair'
    ? `Run ${first} ended at ${at}: its line stops there, ${goesOn}.`
    : `Run ${first} ended at ${at}: from there on, B − A takes ${first}'s final figures.`;
}
