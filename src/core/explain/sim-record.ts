/**
 * Plain-words account of a simulator decision with no algorithm-specific explainer (dispatch,
 * admission, preemption, a batch step, ...): its own summary, where and when it happened, and the
 * simple facts its detail carries.
 */
import { explainBatchStep } from './batch-step';
import { explainClassResolution } from './classify';
import { nextRecheckTick, ROUTER_QUEUE_RECHECK_S } from '../drr/release';
import type { EnqueueDetail } from '../sim/decision';
import type { ExplainableDecision } from './records';
import type { ExplanationStep } from './types';
import { count, num } from './words';

/** The most facts listed from a detail object. */
const MAX_FACTS = 16;

export function explainSimRecord(r: ExplainableDecision): ExplanationStep[] {
  const steps: ExplanationStep[] = [{ text: r.summary }];
  // a batch step reads as sentences (what was batched, why, what it cost), not as a list of fields
  if (r.kind === 'step' && r.detail !== undefined && 'step_ms' in r.detail)
    return [...steps, ...explainBatchStep(r, r.detail)];
  const where: string[] = [];
  if (r.t !== undefined) where.push(`at t = ${num(r.t)} s`);
  if (r.request !== undefined) where.push(`request ${r.request}`);
  if (r.client !== undefined) where.push(`client ${r.client}`);
  if (r.worker !== undefined && r.worker >= 0) where.push(`worker ${r.worker}`);
  if (r.class !== undefined && r.class !== '') where.push(`policy class ${r.class}`);
  if (where.length > 0) {
    const step: ExplanationStep = { text: `${capitalise(r.kind)} ${where.join(', ')}.` };
    if (r.client !== undefined) step.ref = { kind: 'client', name: r.client };
    else if (r.class) step.ref = { kind: 'class', name: r.class };
    steps.push(step);
  }
  if (r.kind === 'enqueue' && r.detail !== undefined && 'pool_busy' in r.detail)
    steps.push(...explainStored(r.detail, r.t, r.class));
  else {
    const facts = detailFacts(r.detail);
    if (facts.length > 0) steps.push({ text: `Details: ${facts.join('; ')}.` });
  }
  const resolution = r.detail !== undefined && 'resolution' in r.detail ? r.detail.resolution : null;
  if (resolution) steps.push(...explainClassResolution(resolution));
  return steps;
}

/**
 * A request stored in the router's policy-class queue, in words: what it costs, why it was stored,
 * and when it can leave. Up to v1.5 an arrival is stored without a drain, so it waits for the next
 * worker update or the periodic update (whose time follows from the arrival's); from v1.6 the drain
 * runs at once.
 */
function explainStored(d: EnqueueDetail, t: number | undefined, cls: string | undefined): ExplanationStep[] {
  const inClass = cls ? `class ${cls}` : 'its class';
  const cached = d.cached_tokens === 0 ? 'none of them cached' : `${num(d.cached_tokens)} of them cached`;
  const steps: ExplanationStep[] = [
    {
      text: `Its DRR cost is ${num(d.cost)}: the uncached tokens of its ${count(d.raw_isl, 'prompt token')} (${cached}; at least 1).`,
    },
  ];
  const pinned = d.pinned_worker !== undefined ? `its worker ${d.pinned_worker}` : null;
  const why = d.backlog
    ? `${inClass} already has requests stored (a backlog), so it joins the queue behind them`
    : d.pool_busy
      ? pinned !== null
        ? `${pinned} is busy for ${inClass} (over the class's prefill_busy_threshold)`
        : `every worker is busy for ${inClass} (over the class's prefill_busy_threshold)`
      : 'nothing holds it back';
  if (d.every_arrival_queued) {
    steps.push({
      text: `Why stored: Dynamo v1.6 stores every arrival and drains the queue in the same turn; ${why}.`,
    });
    steps.push({
      text: `When it can leave: at once, in the drain after this arrival, if it may leave now; otherwise at the next worker update (a prefill completing or a request finishing) that finds it dispatchable.`,
    });
  } else {
    steps.push({ text: `Why stored: ${why}.` });
    const tick = t !== undefined ? nextRecheckTick(t, ROUTER_QUEUE_RECHECK_S) * ROUTER_QUEUE_RECHECK_S : null;
    const periodic =
      tick !== null
        ? `the router's periodic queue update at t = ${num(tick)} s (every ${ROUTER_QUEUE_RECHECK_S} s)`
        : `the router's periodic queue update (every ${ROUTER_QUEUE_RECHECK_S} s)`;
    steps.push({
      text: `When it can leave: not at this arrival, even if it could (up to v1.5 an arrival is stored without a drain). It leaves at the next worker update (a prefill completing or a request finishing on a worker) or at ${periodic}, whichever comes first and finds it dispatchable${pinned !== null ? `: as a request pinned to worker ${d.pinned_worker}, once that worker is no longer busy for ${inClass}` : ''}.`,
    });
  }
  if (d.due_s !== undefined) steps.push({ text: `Its due time is t = ${num(d.due_s)} s.` });
  return steps;
}

/** Simple fields of a detail object as `key = value`, in key order (nested objects left out). */
export function detailFacts(detail: object | undefined): string[] {
  if (detail === undefined) return [];
  const out: string[] = [];
  const keys = Object.keys(detail).sort();
  for (const k of keys) {
    const v: unknown = Reflect.get(detail, k);
    const text = factValue(v);
    if (text !== null) out.push(`${k} = ${text}`);
    if (out.length >= MAX_FACTS) break;
  }
  return out;
}

function factValue(v: unknown): string | null {
  if (typeof v === 'number') return num(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v) && v.length <= 12 && v.every((x) => typeof x === 'number' || typeof x === 'string'))
    return `[${v.map((x) => (typeof x === 'number' ? num(x) : x)).join(', ')}]`;
  // Small tables such as per-worker (waiting, running) pairs: "[3/2, 0/1]".
  if (
    Array.isArray(v) &&
    v.length <= 12 &&
    v.every((row) => Array.isArray(row) && row.length <= 4 && row.every((x) => typeof x === 'number'))
  )
    return `[${v.map((row: number[]) => row.map(num).join('/')).join(', ')}]`;
  return null;
}

function capitalise(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1);
}
