/**
 * Workloads for the live-order tests (LPM, DLPM, DFS-weight), deterministic from a seed, and the
 * lockstep run that compares a live order with its reference on them.
 */
import fc from 'fast-check';
import type { Harness } from './harness';

export interface Case {
  seed: number;
  n: number;
  block: 1 | 4 | 16;
  kvTokens: number;
  maxRunning: number;
  batch: number;
  admission: 'sglang' | 'optimistic';
  fallback: number;
  collide: boolean;
  /** Clients (round robin over the requests); 1 when absent. */
  clients?: number;
}

/** Deterministic workload from a seed: [arrival time, prompt, output, forced head key or -2]. */
export interface Job {
  t: number;
  tokens: Int32Array;
  out: number;
  head: number;
  client: number;
}

export function workload(c: Case): Job[] {
  let x = c.seed >>> 0 || 1;
  const rnd = (k: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % k;
  };
  const families = 1 + rnd(6);
  const systems = Array.from({ length: families }, (_, f) =>
    Int32Array.from({ length: rnd(4) === 0 ? 0 : 8 + rnd(200) }, (_, i) => 100_000 * (f + 1) + i),
  );
  const out: Job[] = [];
  for (let i = 0; i < c.n; i++) {
    const t = rnd(3) === 0 ? 0 : rnd(4000) / 1000;
    let tokens: Int32Array;
    if (out.length > 0 && rnd(3) === 0) {
      // a follow-up: an earlier prompt plus a new turn
      const prev = out[rnd(out.length)].tokens;
      const turn = Int32Array.from({ length: 1 + rnd(80) }, () => rnd(5));
      tokens = new Int32Array(prev.length + turn.length);
      tokens.set(prev);
      tokens.set(turn, prev.length);
    } else {
      const sys = systems[rnd(families)];
      const user = Int32Array.from({ length: 1 + rnd(300) }, () =>
        rnd(2) === 0 ? rnd(4) : 1000 + rnd(50_000),
      );
      tokens = new Int32Array(sys.length + user.length);
      tokens.set(sys);
      tokens.set(user, sys.length);
    }
    if (tokens.length > 1500) tokens = tokens.subarray(0, 1500);
    out.push({
      t,
      tokens,
      out: 1 + rnd(40),
      head: c.collide && rnd(4) === 0 ? 7 + rnd(2) : -2,
      client: rnd(c.clients ?? 1),
    });
  }
  out.sort((a, b) => a.t - b.t);
  return out;
}

/** What a lockstep run varies by policy. */
export interface LockstepOptions {
  /** A job's client name (default 'a'). */
  client?: (j: Job) => string;
  /** Give requests their forced head keys (the in-batch deferral's collision path). */
  heads?: boolean;
  /** A further comparison after each step (e.g. DLPM's deficits): a message when they differ. */
  after?: () => string | null;
}

/**
 * Feed `arrivals` to two identical workers `a` (live) and `b` (reference) and step them together.
 * Null when the waiting order before every step, the step times and every decision record agree to
 * the end, else where they first differ.
 */
export function lockstepDifference(
  arrivals: readonly Job[],
  a: Harness,
  b: Harness,
  o: LockstepOptions = {},
): string | null {
  let next = 0;
  let seen = 0;
  for (let step = 0; step < 200_000; step++) {
    while (next < arrivals.length && arrivals[next].t <= a.now) {
      const w = arrivals[next];
      const spec = { id: `r${next}`, client: o.client?.(w) ?? 'a', tokens: w.tokens, out: w.out };
      const ra = a.add(spec, w.t);
      const rb = b.add(spec, w.t);
      if (o.heads && w.head !== -2) ra.headKey = rb.headKey = w.head;
      next++;
    }
    const wa = a.policy.waiting(1_000_000).map((r) => r.id);
    const wb = b.policy.waiting(1_000_000).map((r) => r.id);
    if (wa.join() !== wb.join()) return `step ${step}: waiting order ${wa.slice(0, 8)} vs ${wb.slice(0, 8)}`;
    const sa = a.step();
    const sb = b.step();
    if (sa !== sb || a.now !== b.now) return `step ${step}: the workers diverged in time`;
    if (a.records.length !== b.records.length)
      return `step ${step}: ${a.records.length} vs ${b.records.length} records`;
    for (; seen < a.records.length; seen++) {
      const x = JSON.stringify(a.records[seen]);
      const y = JSON.stringify(b.records[seen]);
      if (x !== y) return `step ${step}: record\n${x}\nvs\n${y}`;
    }
    const other = o.after?.() ?? null;
    if (other !== null) return `step ${step}: ${other}`;
    if (!sa) {
      if (next >= arrivals.length) return a.completed.length === arrivals.length ? null : 'unfinished';
      a.now = b.now = Math.max(a.now, arrivals[next].t);
    }
  }
  return 'too many steps';
}

/** The worker a case describes, as the Harness takes it (policy and clients added by each test). */
export function workerOptions(c: Case) {
  return {
    kvTokens: c.kvTokens,
    blockSize: c.block,
    maxRunning: c.maxRunning,
    maxBatchTokens: c.batch,
    admission: c.admission,
    preemption: 'fcfs' as const,
  };
}

/** The random case fields every live-order test draws (queues of 100 to `maxN`). */
export function caseFields(maxN: number) {
  return {
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    n: fc.integer({ min: 100, max: maxN }),
    block: fc.constantFrom(1 as const, 4 as const, 16 as const),
    kvTokens: fc.constantFrom(6_000, 12_000, 40_000),
    maxRunning: fc.constantFrom(4, 16, 64),
    batch: fc.constantFrom(512, 2048),
    admission: fc.constantFrom('sglang' as const, 'optimistic' as const),
    fallback: fc.constantFrom(0, 0, 60, 400),
    collide: fc.boolean(),
  };
}

/** Switch every flag of a test-only faults object off. */
export function clearFaults(faults: { [k: string]: boolean }): void {
  for (const k of Object.keys(faults)) faults[k] = false;
}
