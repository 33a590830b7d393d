/**
 * DRR arbitration cost: ns per pop on deep backlogs for 2, 8 and 64 classes; independence from the
 * cost/quantum ratio (bulk virtual rounds); and overhead over a plain binary-heap pop.
 *
 * The machine may be shared: every figure is the fastest chunk of 2000 pops over several fresh runs
 * (load only ever slows a chunk down), and the two sides of each ratio are measured alternately.
 */
import { ClassHeap, type CompiledPolicy, PolicyQueue, type Profile } from '../src/core/drr';
import type { OrderKey } from '../src/core/drr/order';
import type { Figure } from './types';

function policy(classes: number, quantum: (i: number) => number): CompiledPolicy {
  const root: Profile = {
    name: '(root)',
    model: null,
    defaultFamily: null,
    buckets: [],
    classes: Array.from({ length: classes }, (_, i) => ({
      name: `c${i}`,
      quantum: quantum(i),
      queuePolicy: 'fcfs' as const,
    })),
    families: [],
    cells: [],
  };
  return { root, models: [] };
}

const always = () => true;

function now(): number {
  return Number(process.hrtime.bigint());
}

/** A queue with `backlog` requests spread round-robin over the classes, costs from `cost(k)`. */
function filled(
  classes: number,
  backlog: number,
  quantum: (i: number) => number,
  cost: (k: number) => number,
) {
  const q = new PolicyQueue<null>(policy(classes, quantum));
  for (let k = 0; k < backlog; k++)
    q.enqueue({
      id: `r${k}`,
      requestedClass: `c${k % classes}`,
      rawIsl: cost(k),
      cachedTokens: 0,
      arrivalS: k,
      payload: null,
    });
  return q;
}

const CHUNK = 2000;

/**
 * ns per pop of one run on a fresh queue: the fastest chunk of CHUNK pops, so a chunk in which the
 * OS preempted us does not count.
 */
function runQueue(make: () => PolicyQueue<null>, pops: number, record: boolean): number {
  const q = make();
  let best = Number.POSITIVE_INFINITY;
  for (let done = 0; done < pops; done += CHUNK) {
    const t0 = now();
    if (record) {
      for (let i = 0; i < CHUNK; i++) if (!q.pop(always).request) throw new Error('backlog ran dry');
    } else {
      for (let i = 0; i < CHUNK; i++) if (!q.popRequest(always)) throw new Error('backlog ran dry');
    }
    best = Math.min(best, (now() - t0) / CHUNK);
  }
  return best;
}

function plainHeap(backlog: number): ClassHeap<OrderKey & { id: string }> {
  const h = new ClassHeap<OrderKey & { id: string }>();
  for (let k = 0; k < backlog; k++) h.push({ id: `r${k}`, strictPriority: 0, score: -k, seq: k });
  return h;
}

/** The same measurement on one plain heap holding the whole backlog. */
function runHeap(backlog: number, pops: number): number {
  const h = plainHeap(backlog);
  let best = Number.POSITIVE_INFINITY;
  for (let done = 0; done < pops; done += CHUNK) {
    const t0 = now();
    for (let i = 0; i < CHUNK; i++) if (!h.pop()) throw new Error('heap ran dry');
    best = Math.min(best, (now() - t0) / CHUNK);
  }
  return best;
}

/** Fastest of `runs` runs for each side, alternating sides, after one warm-up run of each. */
function fastest(sides: (() => number)[], runs: number): number[] {
  for (const side of sides) side();
  const best = sides.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < runs; r++)
    for (let i = 0; i < sides.length; i++) best[i] = Math.min(best[i], sides[i]());
  return best;
}

export default async function bench(): Promise<Figure[]> {
  const backlog = 100_000;
  const pops = 50_000;
  const quantum = (i: number) => 1 + (i % 7);
  const unit = () => 1;
  const figures: Figure[] = [];

  const [c2, c8, c64] = fastest(
    [2, 8, 64].map((c) => () => runQueue(() => filled(c, backlog, quantum, unit), pops, false)),
    4,
  );
  for (const [c, ns] of [
    [2, c2],
    [8, c8],
    [64, c64],
  ] as const)
    figures.push({
      name: `drr.pop_ns.c${c}`,
      value: ns,
      unit: 'ns/pop',
      note: `${backlog} queued, unit costs, quanta 1..7, no decision record`,
    });

  const [recorded] = fastest([() => runQueue(() => filled(8, backlog, quantum, unit), pops / 5, true)], 3);
  figures.push({
    name: 'drr.pop_ns.c8_record',
    value: recorded,
    unit: 'ns/pop',
    note: 'C=8 with the full decision record (visits, deficits, summary), as the trace and the UI use it',
  });

  const [huge, small] = fastest(
    [
      () =>
        runQueue(
          () =>
            filled(
              8,
              backlog,
              () => 1000,
              () => 1_000_000_000,
            ),
          pops,
          false,
        ),
      () =>
        runQueue(
          () =>
            filled(
              8,
              backlog,
              () => 1000,
              () => 1000,
            ),
          pops,
          false,
        ),
    ],
    5,
  );
  figures.push({
    name: 'drr.size_ratio',
    value: huge / small,
    unit: 'x',
    target: '≤ 1.5',
    note: `C=8: cost/quantum 1e6 ${huge.toFixed(0)} ns vs 1 ${small.toFixed(0)} ns per pop`,
  });

  const [drr8, heap] = fastest(
    [() => runQueue(() => filled(8, backlog, quantum, unit), pops, false), () => runHeap(backlog, pops)],
    5,
  );
  figures.push({
    name: 'drr.heap_ratio',
    value: drr8 / heap,
    unit: 'x',
    target: '≤ 4',
    note: `C=8 DRR pop ${drr8.toFixed(0)} ns vs one binary heap of ${backlog} ${heap.toFixed(0)} ns`,
  });
  return figures;
}
