/**
 * LRS's kinetic tournament tree (#15.3) admits exactly what the O(n) re-key did: the slack of every
 * waiting request computed at the pass's `now` as (arrival + D − now − R) / D, lower first, then
 * earlier arrival, then smaller id, popped head-of-line. Big random workloads (thousands of requests,
 * random arrivals and prompt lengths, admission passes at increasing times that admit a random number
 * before the head does not fit, and near-ties a few ulps apart) must pop the same sequence from the
 * tree as from that reference; the same property fails for two deliberately broken structures (a
 * static key arrival + D − R, and a tree whose certificates never fail), and for a tree without
 * the rounding band, so the test can tell. The same holds for the pull router's held queue under
 * LRS, EDF and FCFS against the router's old scan.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LrsMotion } from '../../../src/core/algorithms/lrs/policy';
import {
  type DeadlineParams,
  deadlineBudgetS,
  predictedPrefillS,
} from '../../../src/core/algorithms/shared/deadline';
import { HeldQueue } from '../../../src/core/algorithms/shared/held-queue';
import { KineticTournament } from '../../../src/core/algorithms/shared/kinetic-tournament';
import {
  ArrivalPrioritizer,
  EdfPrioritizer,
  LrsPrioritizer,
  type Prioritizer,
} from '../../../src/core/algorithms/shared/prioritizer';
import {
  arrivalThenId,
  keyThenArrival,
  RequestHeap,
} from '../../../src/core/algorithms/shared/request-order';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../../src/core/replica/local-policy';
import { GPUS, MODELS, prefillTimeS } from '../../../src/core/cost';
import { SimRequest } from '../../../src/core/sim/request';
import { type Arrival, Harness, range } from './harness';

const GPU = GPUS['a100-80gb'];
const MODEL = MODELS['llama-3.1-8b'];
const PARAMS = { multiplier: 1.5, minDeadlineS: 0.5 };

/** One step of a workload: requests join at `t`, or an admission pass at `t` takes `take` heads. */
type Op =
  | { kind: 'join'; dt: number; len: number; twin: number; ulps: number; ulpsR: number }
  | { kind: 'pass'; dt: number; take: number };

/** Steps where about `twins` in 8 joins are near-twins of a recent request. */
const opsArb = (twins: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant('join' as const),
        // microseconds since the previous step: bursts at the same instant and spread arrivals
        dt: fc.oneof(
          fc.constant(0),
          fc.integer({ min: 0, max: 20_000 }).map((us) => us / 1e6),
        ),
        len: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 16_000 })),
        // ≥ 0: a near-twin of an earlier request (same budget, slack a rounding away)
        twin: fc.oneof(
          { weight: 8 - twins, arbitrary: fc.constant(-1) },
          { weight: twins, arbitrary: fc.nat({ max: 15 }) },
        ),
        ulps: fc.integer({ min: -3, max: 3 }),
        ulpsR: fc.integer({ min: -3, max: 3 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('pass' as const),
        dt: fc.integer({ min: 0, max: 200_000 }).map((us) => us / 1e6),
        // mostly a step that admits 0–2, sometimes a burst: the queue grows to thousands
        take: fc.oneof(
          { weight: 9, arbitrary: fc.integer({ min: 0, max: 2 }) },
          fc.integer({ min: 0, max: 60 }),
        ),
      }),
    },
  );

const opArb = opsArb(2);
/** A workload of 3,000–6,000 steps (thousands of requests, queues of thousands), few or many near-ties. */
const workloadArb = fc.oneof(
  fc.array(opArb, { minLength: 3000, maxLength: 6000 }),
  fc.array(opsArb(6), { minLength: 3000, maxLength: 6000 }),
);

let serial = 0;
function request(id: string, len: number, t: number): SimRequest {
  return new SimRequest(
    {
      id,
      client: 'a',
      tokens: new Int32Array(len),
      outputTokens: 1,
      maxNewTokens: 1,
      sloClass: 'standard',
      program: id,
      node: 'n',
    },
    0,
    serial++,
    t,
  );
}

/** `x` > 0 moved by `k` units in the last place (0 stays 0). */
function nudge(x: number, k: number): number {
  if (!(x > 0)) return x;
  const b = new Float64Array([x]);
  const i = new BigInt64Array(b.buffer);
  i[0] += BigInt(k);
  return b[0];
}

/** The requests an op sequence makes, with D and R as LRS keeps them (R in policyKey, D in policyAux). */
function materialise(ops: Op[]): { t: number; req?: SimRequest; take?: number }[] {
  const out: { t: number; req?: SimRequest; take?: number }[] = [];
  const made: SimRequest[] = [];
  let t = 0;
  for (const op of ops) {
    t += op.dt;
    if (op.kind === 'pass') {
      out.push({ t, take: op.take });
      continue;
    }
    let req: SimRequest;
    if (op.twin >= 0 && made.length > 0) {
      const of = made[Math.max(0, made.length - 1 - op.twin)];
      // arrival a few ulps away and R moved by as much as arrival + D moved (plus a few of R's
      // ulps): the two slacks' true values are closer than one rounding of the numerator
      const arrival = nudge(of.arrivalT, op.ulps);
      const d = of.policyAux;
      req = request(`r${made.length}`, of.promptLen, arrival);
      req.policyKey =
        of.policyKey + (arrival + d - (of.arrivalT + d)) + op.ulpsR * (nudge(of.policyKey, 1) - of.policyKey);
      req.policyAux = d;
    } else {
      req = request(`r${made.length}`, op.len, t);
      req.policyKey = prefillTimeS(GPU, MODEL, op.len, 0);
      req.policyAux = deadlineBudgetS(PARAMS, req.policyKey);
    }
    made.push(req);
    out.push({ t, req });
  }
  return out;
}

/** What a structure under test must do. */
interface Queue {
  insert(r: SimRequest, now: number): void;
  /** The first `k` in order at `now`, without removing them (the waiting list a snapshot shows). */
  first?(now: number, k: number): string[];
  /** Pop up to `take` heads in order at `now` (the head-of-line pass). */
  pass(now: number, take: number): string[];
}

/** The O(n) reference: every waiting request re-keyed at `now`, then the least slack popped. */
class Reference implements Queue {
  private q: SimRequest[] = [];
  insert(r: SimRequest): void {
    this.q.push(r);
  }
  pass(now: number, take: number): string[] {
    const out: string[] = [];
    const slack = (r: SimRequest) => (r.arrivalT + r.policyAux - now - r.policyKey) / r.policyAux;
    for (let k = 0; k < take && this.q.length > 0; k++) {
      let best = 0;
      for (let i = 1; i < this.q.length; i++) {
        const a = this.q[i];
        const b = this.q[best];
        const sa = slack(a);
        const sb = slack(b);
        if (sa < sb || (sa === sb && (a.arrivalT < b.arrivalT || (a.arrivalT === b.arrivalT && a.id < b.id))))
          best = i;
      }
      out.push(this.q[best].id);
      this.q.splice(best, 1);
    }
    return out;
  }
  first(now: number, k: number): string[] {
    const slack = (r: SimRequest) => (r.arrivalT + r.policyAux - now - r.policyKey) / r.policyAux;
    return [...this.q]
      .sort((a, b) => slack(a) - slack(b) || a.arrivalT - b.arrivalT || (a.id < b.id ? -1 : 1))
      .slice(0, k)
      .map((r) => r.id);
  }
}

class Tree implements Queue {
  readonly t: KineticTournament<SimRequest>;
  constructor(motion = new LrsMotion()) {
    this.t = new KineticTournament<SimRequest>(motion);
  }
  insert(r: SimRequest, now: number): void {
    this.t.insert(r, now);
  }
  pass(now: number, take: number): string[] {
    const out: string[] = [];
    for (let k = 0; k < take; k++) {
      const r = this.t.peek(now);
      if (r === undefined) break;
      out.push(r.id);
      this.t.popFirst();
    }
    return out;
  }
  first(now: number, k: number): string[] {
    return this.t.ordered(now, k).map((r) => r.id);
  }
}

/** Broken: a key fixed at enqueue, arrival + D − R (the slack's numerator at time 0). */
class StaticKey implements Queue {
  private h = new RequestHeap(keyThenArrival);
  insert(r: SimRequest): void {
    // a copy carrying the static key (the original's policyKey holds R for the others)
    const copy = request(r.id, 1, r.arrivalT);
    copy.policyKey = r.arrivalT + r.policyAux - r.policyKey;
    this.h.push(copy);
  }
  pass(_now: number, take: number): string[] {
    const out: string[] = [];
    for (let k = 0; k < take && this.h.size > 0; k++) out.push((this.h.pop() as SimRequest).id);
    return out;
  }
}

/** Broken: the lines claim nobody moves, so no certificate ever fails. */
class FrozenMotion extends LrsMotion {
  override line(x: SimRequest, out: Float64Array): void {
    super.line(x, out);
    out[1] = 0;
    out[3] = 0;
  }
}

/** Broken: exact lines but no rounding band (pairs a few ulps apart are never re-checked). */
class BandlessMotion extends LrsMotion {
  override line(x: SimRequest, out: Float64Array): void {
    super.line(x, out);
    out[2] = 0;
    out[3] = 0;
  }
}

/** Run `ops` through the reference and `make()`; the first pass where they differ, or null. */
function firstDifference(ops: Op[], make: () => Queue): string | null {
  const steps = materialise(ops);
  const ref = new Reference();
  const got = make();
  for (const s of steps) {
    if (s.req !== undefined) {
      ref.insert(s.req);
      got.insert(s.req, s.t);
      continue;
    }
    if (got.first !== undefined && s.take === 0) {
      // a pass that admits nothing: compare the waiting lists a snapshot would show instead
      const a = ref.first(s.t, 12).join();
      const b = got.first(s.t, 12).join();
      if (a !== b) return `waiting at t=${s.t}: reference ${a} / got ${b}`;
    }
    const a = ref.pass(s.t, s.take ?? 0);
    const b = got.pass(s.t, s.take ?? 0);
    if (a.join() !== b.join()) return `at t=${s.t}: reference ${a.join()} / got ${b.join()}`;
  }
  // and the rest, drained at a late time
  const late = (steps.at(-1)?.t ?? 0) + 5;
  const a = ref.pass(late, 1e9);
  const b = got.pass(late, 1e9);
  return a.join() === b.join() ? null : `draining at t=${late}: differs`;
}

const prop = (make: () => Queue) => fc.property(workloadArb, (ops) => firstDifference(ops, make) === null);

describe('LRS kinetic tournament = the O(n) re-key', () => {
  it('pops exactly the reference sequence on big random workloads', () => {
    fc.assert(
      prop(() => new Tree()),
      { numRuns: 12 },
    );
  });

  it('the same property fails for a static key, a tree whose certificates never fail, and one without the rounding band', () => {
    const broken: [string, () => Queue][] = [
      ['static key arrival + D − R', () => new StaticKey()],
      ['frozen certificates', () => new Tree(new FrozenMotion())],
      ['no rounding band', () => new Tree(new BandlessMotion())],
    ];
    for (const [name, make] of broken) {
      const r = fc.check(prop(make), { numRuns: 12, endOnFailure: true });
      expect(r.failed, name).toBe(true);
    }
  });

  it('processes far fewer certificates than a re-key of every waiting request per pass', () => {
    // 20,000 requests join over time, a pass every 5 ms admits one; the queue grows to thousands
    const tree = new Tree();
    let t = 0;
    let rekeys = 0;
    let size = 0;
    for (let i = 0; i < 20_000; i++) {
      t += 0.001;
      const len = 1 + ((i * 7919) % 12_000);
      const r = request(`q${i}`, len, t);
      r.policyKey = prefillTimeS(GPU, MODEL, len, 0);
      r.policyAux = deadlineBudgetS(PARAMS, r.policyKey);
      tree.insert(r, t);
      size++;
      if (i % 5 === 4) {
        size -= tree.pass(t, 1).length;
        rekeys += size;
      }
    }
    // a re-key touches every waiting request per pass (about 4·10^7 here); the tree a few per op
    expect(rekeys).toBeGreaterThan(30_000_000);
    expect(tree.t.recomputes).toBeLessThan(rekeys / 50);
  });
});

/** The router's scan over held requests before the held queue (the reference). */
class HeldScan {
  private held: { r: SimRequest; key: number; scale: number }[] = [];
  constructor(private readonly o: Prioritizer | null) {}
  push(r: SimRequest): void {
    const o = this.o;
    this.held.push({ r, key: o === null ? 0 : o.key(r), scale: o?.scale ? o.scale(r) : 0 });
  }
  take(now: number): string | undefined {
    if (this.held.length === 0) return undefined;
    const pr = (h: { key: number; scale: number }) => (h.scale === 0 ? h.key : (h.key - now) / h.scale);
    let best = 0;
    if (this.o !== null) {
      let bp = pr(this.held[0]);
      for (let i = 1; i < this.held.length; i++) {
        const p = pr(this.held[i]);
        const a = this.held[i].r;
        const b = this.held[best].r;
        if (p < bp || (p === bp && (a.arrivalT < b.arrivalT || (a.arrivalT === b.arrivalT && a.id < b.id)))) {
          best = i;
          bp = p;
        }
      }
    }
    return this.held.splice(best, 1)[0].r.id;
  }
}

describe('the pull router’s held queue = its old scan', () => {
  const cost = { gpu: GPU, model: MODEL };
  const orders: [string, () => Prioritizer | null][] = [
    ['lrs', () => new LrsPrioritizer(PARAMS, cost)],
    ['edf', () => new EdfPrioritizer(PARAMS, cost)],
    ['fcfs', () => new ArrivalPrioritizer()],
    ['none', () => null],
  ];
  for (const [name, order] of orders)
    it(`${name}: the same requests leave in the same order`, () => {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 1000, maxLength: 2500 }), (ops) => {
          const steps = materialise(ops);
          const ref = new HeldScan(order());
          const q = new HeldQueue(order());
          for (const s of steps) {
            if (s.req !== undefined) {
              // a held request is a fresh one: the prioritizer predicts from its prompt
              const r = request(s.req.id, s.req.promptLen, s.req.arrivalT);
              ref.push(r);
              q.push(r, s.t);
              continue;
            }
            for (let k = 0; k < (s.take ?? 0); k++) {
              const a = ref.take(s.t);
              const b = q.next(s.t)?.id;
              if (a !== b) return false;
              if (b === undefined) break;
              q.removeNext();
            }
          }
          return true;
        }),
        { numRuns: 6 },
      );
    });
});

/** LRS as it was before the kinetic tree: every waiting request re-keyed and heaped at every pass. */
class RekeyLrs implements LocalPolicy {
  readonly name = 'lrs';
  private readonly queue: SimRequest[] = [];
  private now = 0;
  constructor(private readonly params: DeadlineParams) {}
  size(): number {
    return this.queue.length;
  }
  enqueue(req: SimRequest, worker: WorkerView): void {
    const remaining = predictedPrefillS(req, worker);
    req.policyKey = remaining;
    req.policyAux = deadlineBudgetS(this.params, remaining);
    this.queue.push(req);
    this.now = worker.now;
  }
  private slack(req: SimRequest, now: number): number {
    const d = req.policyAux;
    return (req.arrivalT + d - now - req.policyKey) / d;
  }
  admit(ctx: AdmissionContext): void {
    const now = ctx.worker.now;
    this.now = now;
    const q = this.queue;
    const n = q.length;
    if (n === 0) return;
    const slack = q.map((r) => this.slack(r, now));
    const before = (x: number, y: number) =>
      slack[x] !== slack[y] ? slack[x] < slack[y] : arrivalThenId(q[x], q[y]) < 0;
    // repeated least slack (a heap of a total order pops the same sequence)
    const gone = new Uint8Array(n);
    for (let taken = 0; taken < n; taken++) {
      let i = -1;
      for (let j = 0; j < n; j++) if (gone[j] === 0 && (i < 0 || before(j, i))) i = j;
      const r = q[i];
      const outcome = ctx.recording
        ? ctx.tryAdmit(r, `least slack (${slack[i].toFixed(3)} of budget ${r.policyAux.toFixed(3)} s)`, {
            algo: 'lrs' as const,
            slack: slack[i],
            deadline_budget_s: r.policyAux,
            remaining_prefill_s: r.policyKey,
            rank: taken,
          })
        : ctx.tryAdmit(r);
      if (outcome !== 'admitted') break;
      gone[i] = 1;
    }
    let k = 0;
    for (let i = 0; i < n; i++) if (gone[i] === 0) q[k++] = q[i];
    q.length = k;
  }
  waiting(limit: number): SimRequest[] {
    const now = this.now;
    return [...this.queue]
      .sort((a, b) => {
        const x = this.slack(a, now);
        const y = this.slack(b, now);
        return x !== y ? (x < y ? -1 : 1) : arrivalThenId(a, b);
      })
      .slice(0, limit);
  }
}

describe('LRS on a worker: the same admissions and decision records as the per-pass re-key', () => {
  it('an overloaded worker with preemptions: the same admitted sequence and decision records, byte for byte', () => {
    const arrival = fc.record({
      dt: fc.integer({ min: 0, max: 3_000 }).map((us) => us / 1e6),
      len: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 6_000 })),
      out: fc.integer({ min: 1, max: 16 }),
    });
    fc.assert(
      fc.property(fc.array(arrival, { minLength: 400, maxLength: 700 }), (xs) => {
        let t = 0;
        const arrivals: Arrival[] = xs.map((x, i) => {
          t += x.dt;
          return {
            t,
            id: `q${i}`,
            client: i % 2 === 0 ? 'a' : 'b',
            tokens: range(i * 10_000, x.len),
            out: x.out,
          };
        });
        // small KV and few slots: head-of-line stops, KV preemptions, a queue of hundreds
        const opts = { kvTokens: 24_000, maxRunning: 24, maxBatchTokens: 4096, preemption: 'fcfs' as const };
        const ref = new Harness({ ...opts, policy: 'lrs', use: new RekeyLrs(PARAMS) });
        const got = new Harness({ ...opts, policy: 'lrs' });
        ref.run(arrivals);
        got.run(arrivals);
        expect(got.admitted).toEqual(ref.admitted);
        expect(got.records.length).toBe(ref.records.length);
        expect(JSON.stringify(got.records)).toBe(JSON.stringify(ref.records));
        return true;
      }),
      { numRuns: 3, endOnFailure: true },
    );
  });
});
