/**
 * Plain-words account of a simulator decision with no algorithm-specific explainer (dispatch,
 * admission, preemption, a batch step, ...): its own summary, where and when it happened, and the
 * simple facts its detail carries.
 */
import { explainBatchStep } from './batch-step';
import { explainClassResolution } from './classify';
import type { ExplainableDecision } from './records';
import type { ExplanationStep } from './types';
import { num } from './words';

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
  const facts = detailFacts(r.detail);
  if (facts.length > 0) steps.push({ text: `Details: ${facts.join('; ')}.` });
  const resolution = r.detail !== undefined && 'resolution' in r.detail ? r.detail.resolution : null;
  if (resolution) steps.push(...explainClassResolution(resolution));
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
