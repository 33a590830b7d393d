/**
 * The Class service view's data: the core's typed ClassServiceSnapshot (src/core/metrics) as it
 * arrives in the snapshot's `class_service`, checked for shape (a frame cut to fit its byte budget
 * may have shortened the series) instead of trusted.
 */
import type { ClassServiceSnapshot } from '../../core/metrics/class-service';

function isNumArray(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number' || x === null);
}

function isRows(v: unknown, n: number): v is number[][] {
  return Array.isArray(v) && v.length === n && v.every(isNumArray);
}

export function readClassService(snapshot: Record<string, unknown> | null): ClassServiceSnapshot | null {
  const cs = snapshot?.class_service;
  if (cs === null || typeof cs !== 'object' || Array.isArray(cs)) return null;
  const v = cs as Partial<ClassServiceSnapshot>;
  if (!Array.isArray(v.classes) || typeof v.saturated_s !== 'number') return null;
  const n = v.classes.length;
  for (const c of v.classes)
    if (
      c === null ||
      typeof c !== 'object' ||
      typeof c.name !== 'string' ||
      typeof c.served_uncached_tokens !== 'number' ||
      typeof c.quantum !== 'number'
    )
      return null;
  const s = v.series;
  const series =
    s && isNumArray(s.t) && isRows(s.served, n) && isRows(s.queued, n) && isRows(s.rejected, n)
      ? s
      : {
          t: [],
          served: v.classes.map(() => []),
          queued: v.classes.map(() => []),
          rejected: v.classes.map(() => []),
        };
  return { classes: v.classes, saturated_s: v.saturated_s, series };
}
