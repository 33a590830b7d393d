/**
 * The same DRR arbitration as pop-next.ts, on exact unsigned 64-bit integers (BigInt) with Dynamo's
 * saturating arithmetic: adds and products stop at 2^64 - 1, subtractions at 0. Runs only when a pop
 * on plain numbers could pass 2^53 - 1 (a quantum above it, a deficit near it, or a bulk step that
 * could reach it); the everyday pop stays on numbers (`arbitrate` chooses).
 *
 * Each slot's `deficit` is kept as a (rounded) number for views and records throughout; `bigDeficit`
 * holds the exact value whenever it is above 2^53 - 1.
 */
import type { DecisionRecorder } from './decision-record';
import type { Dispatchable, DrrRing } from './drr-ring';
import { popNext } from './pop-next';
import { noteTake, settleTake, shownHead } from './pop-steps';
import type { DrrVariant, QueuedRequest } from './types';

const U64_MAX = (1n << 64n) - 1n;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function add(a: bigint, b: bigint): bigint {
  const s = a + b;
  return s > U64_MAX ? U64_MAX : s;
}

function mul(a: bigint, b: bigint): bigint {
  const p = a * b;
  return p > U64_MAX ? U64_MAX : p;
}

/** One arbitration: on numbers when that is exact, else on BigInt. */
export function arbitrate<T>(
  ring: DrrRing<T>,
  isDispatchable: Dispatchable<T>,
  variant: DrrVariant,
  rec: DecisionRecorder<T> | null,
): QueuedRequest<T> | null {
  if (ring.fastPathSafe()) return popNext(ring, isDispatchable, variant, rec);
  return popNextExact(ring, isDispatchable, variant, rec);
}

/** The exact deficit of a slot. */
export function exactDeficit(slot: { deficit: number; bigDeficit: bigint | null }): bigint {
  return slot.bigDeficit ?? BigInt(slot.deficit);
}

export function popNextExact<T>(
  ring: DrrRing<T>,
  isDispatchable: Dispatchable<T>,
  variant: DrrVariant,
  rec: DecisionRecorder<T> | null,
): QueuedRequest<T> | null {
  const slots = ring.slots;
  const n = slots.length;
  const def = slots.map(exactDeficit);
  const quantum = slots.map((s) => s.config.quantumBig ?? BigInt(s.config.quantum));
  const set = (i: number, v: bigint) => {
    def[i] = v;
    slots[i].deficit = Number(v);
    slots[i].bigDeficit = v > SAFE ? v : null;
  };
  const finish = (req: QueuedRequest<T> | null, touched: number) => {
    ring.big = slots.some((s) => s.bigDeficit !== null);
    ring.lastHeadsTouched = touched;
    return req;
  };
  const take = (i: number): QueuedRequest<T> => {
    const slot = slots[i];
    const req = ring.removePicked(i);
    const cost = BigInt(req.ref.cost);
    set(i, def[i] > cost ? def[i] - cost : 0n);
    const empty = slot.size === 0;
    if (empty) set(i, 0n);
    const nextAffordable =
      variant === 'v1' && !empty && BigInt((slot.first() as QueuedRequest<T>).ref.cost) <= def[i];
    settleTake(ring, i, variant, empty, def[i] > 0n, nextAffordable);
    return req;
  };

  if (ring.total === 0 || n === 0) {
    ring.carry = -1;
    return finish(null, 0);
  }
  const cand = ring.candidates;
  for (let i = 0; i < n; i++) cand[i] = null;
  let touched = 0;

  const carried = variant === 'v2' ? ring.carry : -1;
  ring.carry = -1;
  if (carried >= 0) {
    const c = slots[carried];
    touched++;
    const h = ring.pick(carried, isDispatchable);
    const head = shownHead(c, h);
    const before = c.deficit;
    if (h && BigInt(h.ref.cost) <= def[carried]) {
      const req = take(carried);
      noteTake(rec, 'carry', carried, 'affordable', h, before);
      return finish(req, touched);
    }
    cand[carried] = h;
    if (!head) set(carried, 0n);
    if (rec) rec.visit('carry', carried, !head ? 'empty' : h ? 'unaffordable' : 'blocked', head, before);
  }

  const start = ring.cursor;
  for (let off = 0; off < n; off++) {
    const i = (start + off) % n;
    const slot = slots[i];
    let h: QueuedRequest<T> | null;
    if (i === carried) h = cand[i];
    else {
      touched++;
      h = ring.pick(i, isDispatchable);
    }
    const head = shownHead(slot, h);
    const before = slot.deficit;
    if (!h) {
      if (!head) set(i, 0n);
      if (rec) rec.visit('scan', i, head ? 'blocked' : 'empty', head, before);
      continue;
    }
    cand[i] = h;
    const cost = BigInt(h.ref.cost);
    if (cost <= def[i]) {
      const req = take(i);
      noteTake(rec, 'scan', i, 'affordable', h, before);
      return finish(req, touched);
    }
    set(i, add(def[i], quantum[i]));
    if (cost <= def[i]) {
      const req = take(i);
      noteTake(rec, 'scan', i, 'granted', h, before);
      return finish(req, touched);
    }
    if (rec) rec.visit('scan', i, 'unaffordable', h, before);
  }

  let rounds: bigint | null = null;
  for (let i = 0; i < n; i++) {
    const h = cand[i];
    if (!h) continue;
    const need = BigInt(h.ref.cost) - def[i];
    const r = need <= 0n ? 0n : (need + quantum[i] - 1n) / quantum[i];
    if (rounds === null || r < rounds) rounds = r;
  }
  if (rounds === null) {
    if (rec) rec.allBlocked = true;
    return finish(null, touched);
  }
  for (let i = 0; i < n; i++) if (cand[i]) set(i, add(def[i], mul(quantum[i], rounds)));
  if (rec) rec.bulkRounds = Number(rounds);

  for (let off = 0; off < n; off++) {
    const i = (start + off) % n;
    const h = cand[i];
    if (!h) continue;
    touched++;
    const before = slots[i].deficit;
    if (BigInt(h.ref.cost) <= def[i]) {
      const req = take(i);
      noteTake(rec, 'final', i, 'chosen', h, before);
      return finish(req, touched);
    }
    if (rec) rec.visit('final', i, 'short', h, before);
  }
  return finish(null, touched);
}
