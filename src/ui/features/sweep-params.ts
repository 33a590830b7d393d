/**
 * What a sweep can vary, read from the scenario the playground holds: the DLPM quantum Q^u, the
 * DoubleQ worker quantum Q^w, the worker count, each root policy class's quantum and each client's
 * arrival rate; plus presets that re-create the DLPM paper's Fig. 1 and Fig. 10 on shipped scenarios.
 */
import { SWEEP_PRESETS as CORE_PRESETS, type SweepPresetSpec } from '../../core/algorithms';
import type { SweepParam } from '../../scenario/sweep-params';
import type { Scale } from './store';

export { type SweepParam, sweepParams } from '../../scenario/sweep-params';

/** A sweep that re-creates a figure (declared by the algorithm it is about, in src/core/algorithms). */
export type SweepPreset = SweepPresetSpec;

export const SWEEP_PRESETS: readonly SweepPreset[] = CORE_PRESETS;

/**
 * The parameter the dialog starts on: one whose sweep changes the outcome. On one worker that is the
 * scheduling algorithm's own knob when it has one (fig1-kv-pressure, Q^u 625 → 10,000: Jain 0.82 →
 * 0.74). On several workers it is the worker count: a per-worker knob only acts where two clients are
 * each backlogged beyond their share on the same worker, and the shipped clusters rarely do that. The
 * default scenario's Q^u gave five runs within 1 % of each other (17.4k–17.6k tokens/s, Jain
 * 0.4393–0.4398): only mallory asks for more than her share, and alice's and bob's requests go first
 * at every quantum. Its workers 1 → 4 give 10.1k → 23.0k tokens/s, Jain 0.55 → 0.44 and mallory's
 * median first token 37 s → 0.15 s. (DoubleQ's Q^w on tot-s2-4w: 79.9k → 80.0k tokens/s, README.)
 */
export function defaultParam(params: readonly SweepParam[]): SweepParam | undefined {
  const workers = params.find((p) => p.key === 'cluster.workers');
  const knob = params.find((p) => p.knob === true);
  if (knob && (workers?.current ?? 1) <= 1) return knob;
  return workers ?? params[0];
}

/**
 * A sensible starting range around the current value. The worker count runs from 1 to twice the
 * scenario's, and at least to 4 (a one-worker scenario gets 1, 2, 3, 4, not just 1 and 2), one point
 * per count up to 5 points.
 */
export function defaultRange(p: SweepParam): { from: number; to: number; scale: Scale; points: number } {
  const c = p.current ?? (p.integer ? 4 : 1);
  if (p.key === 'cluster.workers') {
    const to = Math.min(p.max, Math.max(4, c * 2));
    return { from: 1, to, scale: 'linear', points: Math.min(5, to) };
  }
  const round = (v: number) => (p.integer ? Math.max(p.min, Math.round(v)) : Number(v.toPrecision(3)));
  return { from: round(c / 4), to: round(c * 4), scale: 'log', points: 5 };
}

/** `key=value` for one point. */
export function setFor(key: string, value: number): string {
  return `${key}=${value}`;
}
