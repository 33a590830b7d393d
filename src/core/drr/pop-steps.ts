/**
 * The steps of one DRR arbitration that do not touch deficit arithmetic, shared by the pop on plain
 * numbers (pop-next.ts) and the exact u64 pop on BigInt (big-pop.ts), so the two differ only where
 * the numbers do: the cursor and carry after a take, a class's shown head, and the decision record's
 * entry for a take.
 */
import type { DecisionRecorder } from './decision-record';
import type { ClassSlot, DrrRing } from './drr-ring';
import type { ClassVisit, DrrVariant, QueuedRequest } from './types';

/**
 * Cursor and carry after class `i` dispatched: the cursor moves past it (V2, and V1 unless its next
 * head is already affordable); V2 carries a class that still holds credit and still has work.
 * `empty`: the class has nothing left; `hasCredit`: its deficit is above 0 after the charge;
 * `nextAffordable` (V1 only): its next head costs at most that deficit.
 */
export function settleTake<T>(
  ring: DrrRing<T>,
  i: number,
  variant: DrrVariant,
  empty: boolean,
  hasCredit: boolean,
  nextAffordable: boolean,
): void {
  const next = (i + 1) % ring.slots.length;
  if (empty) ring.cursor = next;
  else if (variant === 'v2') {
    ring.cursor = next;
    ring.carry = hasCredit ? i : -1;
  } else ring.cursor = nextAffordable ? i : next;
}

/** The head a visit shows: the dispatchable candidate, else the class's first request (blocked), else none. */
export function shownHead<T>(
  slot: ClassSlot<T>,
  candidate: QueuedRequest<T> | null,
): QueuedRequest<T> | null {
  return slot.size > 0 ? (candidate ?? slot.first()) : null;
}

/** Record a visit that dispatched (and how: the carry, the existing credit, a granted quantum, the final scan). */
export function noteTake<T>(
  rec: DecisionRecorder<T> | null,
  phase: ClassVisit['phase'],
  i: number,
  outcome: 'affordable' | 'granted' | 'chosen',
  head: QueuedRequest<T>,
  before: number,
): void {
  if (!rec) return;
  rec.visit(phase, i, outcome, head, before);
  rec.chosenVia = phase === 'carry' ? 'carry' : outcome;
}
