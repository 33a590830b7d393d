/**
 * One DRR arbitration over a profile's ring (the router code's `pop_next`, "V2", and the docs'
 * cursor rule, "V1"). At most one carry check, one ring scan, one bulk virtual-round computation and
 * one final scan: O(classes) whatever the costs and quanta.
 *
 * V2: a class that keeps credit after a take becomes the `carry` and is tried first next time,
 * without a new quantum; the cursor always moves past the class that dispatched.
 * V1: no carry; after a take the cursor stays on the class when its next head is already affordable.
 */
import type { DecisionRecorder } from './decision-record';
import type { Dispatchable, DrrRing } from './drr-ring';
import { noteTake, settleTake, shownHead } from './pop-steps';
import { ceilDiv, satAdd, satMul, satSub } from './saturating';
import type { DrrVariant, QueuedRequest } from './types';

export type { Dispatchable } from './drr-ring';

/** Dispatch the head of class `i`, charge its cost and move cursor/carry as the variant says. */
function take<T>(ring: DrrRing<T>, i: number, variant: DrrVariant): QueuedRequest<T> {
  const slot = ring.slots[i];
  const req = ring.removePicked(i);
  slot.deficit = satSub(slot.deficit, req.ref.cost);
  const empty = slot.size === 0;
  if (empty) slot.deficit = 0;
  const nextAffordable =
    variant === 'v1' && !empty && (slot.first() as QueuedRequest<T>).ref.cost <= slot.deficit;
  settleTake(ring, i, variant, empty, slot.deficit > 0, nextAffordable);
  return req;
}

/**
 * One arbitration on plain numbers; returns the dispatched request (or null) and leaves the head
 * count in `ring.lastHeadsTouched`. Exact only while `ring.fastPathSafe()` holds (the caller checks;
 * big-pop.ts runs the same algorithm on BigInt otherwise).
 */
export function popNext<T>(
  ring: DrrRing<T>,
  isDispatchable: Dispatchable<T>,
  variant: DrrVariant,
  rec: DecisionRecorder<T> | null,
): QueuedRequest<T> | null {
  const slots = ring.slots;
  const n = slots.length;
  if (ring.total === 0 || n === 0) {
    ring.carry = -1;
    ring.lastHeadsTouched = 0;
    return null;
  }
  const cand = ring.candidates;
  for (let i = 0; i < n; i++) cand[i] = null;
  let touched = 0;

  // V2: the carried class spends its remaining burst first, with no new quantum.
  const carried = variant === 'v2' ? ring.carry : -1;
  ring.carry = -1;
  if (carried >= 0) {
    const c = slots[carried];
    touched++;
    const h = ring.pick(carried, isDispatchable);
    const head = shownHead(c, h);
    const before = c.deficit;
    if (h && h.ref.cost <= c.deficit) {
      const req = take(ring, carried, variant);
      noteTake(rec, 'carry', carried, 'affordable', h, before);
      ring.lastHeadsTouched = touched;
      return req;
    }
    cand[carried] = h;
    if (!head) c.deficit = 0;
    if (rec) rec.visit('carry', carried, !head ? 'empty' : h ? 'unaffordable' : 'blocked', head, before);
  }

  // One ring scan from the cursor: empty classes reset, blocked ones keep their credit but earn none.
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
      if (!head) slot.deficit = 0;
      if (rec) rec.visit('scan', i, head ? 'blocked' : 'empty', head, before);
      continue;
    }
    cand[i] = h;
    const cost = h.ref.cost;
    if (cost <= slot.deficit) {
      const req = take(ring, i, variant);
      noteTake(rec, 'scan', i, 'affordable', h, before);
      ring.lastHeadsTouched = touched;
      return req;
    }
    slot.deficit = satAdd(slot.deficit, slot.config.quantum);
    if (cost <= slot.deficit) {
      const req = take(ring, i, variant);
      noteTake(rec, 'scan', i, 'granted', h, before);
      ring.lastHeadsTouched = touched;
      return req;
    }
    if (rec) rec.visit('scan', i, 'unaffordable', h, before);
  }

  // Bulk virtual rounds: the fewest extra rounds that make some candidate affordable, for everyone.
  let rounds = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const h = cand[i];
    if (!h) continue;
    const slot = slots[i];
    const need = ceilDiv(satSub(h.ref.cost, slot.deficit), slot.config.quantum);
    if (need < rounds) rounds = need;
  }
  if (rounds === Number.POSITIVE_INFINITY) {
    if (rec) rec.allBlocked = true;
    ring.lastHeadsTouched = touched;
    return null;
  }
  for (let i = 0; i < n; i++) {
    if (!cand[i]) continue;
    const slot = slots[i];
    slot.deficit = satAdd(slot.deficit, satMul(slot.config.quantum, rounds));
  }
  if (rec) rec.bulkRounds = rounds;

  // Final scan from the cursor.
  for (let off = 0; off < n; off++) {
    const i = (start + off) % n;
    const h = cand[i];
    if (!h) continue;
    touched++;
    const slot = slots[i];
    const before = slot.deficit;
    if (h.ref.cost <= slot.deficit) {
      const req = take(ring, i, variant);
      noteTake(rec, 'final', i, 'chosen', h, before);
      ring.lastHeadsTouched = touched;
      return req;
    }
    if (rec) rec.visit('final', i, 'short', h, before);
  }
  ring.lastHeadsTouched = touched;
  return null;
}
