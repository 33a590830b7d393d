/**
 * Small zod builders with readable messages: numbers and names. The scenario format composes them,
 * and every algorithm folder builds its parameter shape from them, so a range error reads the same
 * wherever the key lives.
 */
import { z } from 'zod';

/** 1234567 → "1,234,567" (locale-independent, so messages are identical everywhere). */
export function thousands(n: number): string {
  const [int, frac] = String(n).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/**
 * Whole number in [min, max]. One message per value: out of range says the range (1e300 is a whole
 * number, only too large; -2.5 is refused for its sign first), else a fraction is refused as one.
 */
export function int(what: string, min: number, max: number) {
  return z
    .number({ error: `${what} must be a whole number` })
    .min(min, { error: `${what} must be ≥ ${min}`, abort: true })
    .max(max, { error: `${what} must be ≤ ${thousands(max)}`, abort: true })
    .int({ error: `${what} must be a whole number` });
}

/** Finite number in [min, max] (or (min, max] with `exclusiveMin`). */
export function num(what: string, min: number, max: number, exclusiveMin = false) {
  const base = z.number({ error: `${what} must be a number` });
  const low = exclusiveMin
    ? base.gt(min, { error: `${what} must be > ${min}` })
    : base.min(min, { error: `${what} must be ≥ ${min}` });
  return low.max(max, { error: `${what} must be ≤ ${thousands(max)}` });
}

/** A name made of letters, digits, `_`, `.` and `-` (clients, prefix groups, documents). */
export const NAME_RE = /^[A-Za-z0-9_.-]+$/;

export function name(what: string) {
  return z
    .string({ error: `${what} must be a string` })
    .min(1, { error: `${what} must not be empty` })
    .max(64, { error: `${what} must be at most 64 characters` })
    .regex(NAME_RE, { error: `${what} may only contain letters, digits, '_', '.' and '-'` });
}

/** A short free-form label (policy class names, model names). */
export function label(what: string) {
  return z
    .string({ error: `${what} must be a string` })
    .min(1, { error: `${what} must not be empty` })
    .max(200, { error: `${what} must be at most 200 characters` });
}
