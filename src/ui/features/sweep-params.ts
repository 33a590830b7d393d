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

/** A sensible starting range around the current value. */
export function defaultRange(p: SweepParam): { from: number; to: number; scale: Scale } {
  const c = p.current ?? (p.integer ? 4 : 1);
  if (p.key === 'cluster.workers')
    return { from: 1, to: Math.min(p.max, Math.max(2, c * 2)), scale: 'linear' };
  const round = (v: number) => (p.integer ? Math.max(p.min, Math.round(v)) : Number(v.toPrecision(3)));
  return { from: round(c / 4), to: round(c * 4), scale: 'log' };
}

/** `key=value` for one point. */
export function setFor(key: string, value: number): string {
  return `${key}=${value}`;
}
