/**
 * Builds the DrrPopRecord of one pop: the class visits in order, the bulk step, deficits and
 * cursor/carry before and after, the choice, and a one-line summary a person can read.
 */
import type { DrrRing } from './drr-ring';
import type { ClassVisit, DrrPopRecord, DrrVariant, QueuedRequest, VisitOutcome } from './types';

export class DecisionRecorder<T> {
  readonly visits: ClassVisit[] = [];
  private readonly deficitsBefore: number[];
  private readonly cursorBefore: string | null;
  private readonly carryBefore: string | null;
  bulkRounds: number | null = null;
  /** How the winning class paid: set by the pop algorithm. */
  chosenVia: VisitOutcome | 'carry' | null = null;
  allBlocked = false;

  constructor(
    private readonly ring: DrrRing<T>,
    private readonly variant: DrrVariant,
  ) {
    this.deficitsBefore = ring.slots.map((s) => s.deficit);
    this.cursorBefore = ring.nameOf(ring.cursor);
    this.carryBefore = ring.nameOf(ring.carry);
  }

  visit(
    phase: ClassVisit['phase'],
    i: number,
    outcome: VisitOutcome,
    head: QueuedRequest<T> | null,
    deficitBefore: number,
  ): void {
    const slot = this.ring.slots[i];
    this.visits.push({
      phase,
      class: slot.config.name,
      quantum: slot.config.quantum,
      outcome,
      head_id: head ? head.id : null,
      head_cost: head ? head.ref.cost : null,
      deficit_before: deficitBefore,
      deficit_after: slot.deficit,
    });
  }

  finish(chosen: QueuedRequest<T> | null, headsTouched: number): DrrPopRecord {
    const ring = this.ring;
    const deficits = ring.slots.map((s, i) => ({
      class: s.config.name,
      before: this.deficitsBefore[i],
      after: s.deficit,
    }));
    const record: DrrPopRecord = {
      variant: this.variant,
      profile: ring.profile.name,
      visits: this.visits,
      bulk_rounds: this.bulkRounds,
      deficits,
      cursor_before: this.cursorBefore,
      cursor_after: ring.nameOf(ring.cursor),
      carry_before: this.carryBefore,
      carry_after: ring.nameOf(ring.carry),
      chosen: chosen ? { id: chosen.id, class: chosen.ref.className, cost: chosen.ref.cost } : null,
      heads_touched: headsTouched,
      summary: '',
    };
    record.summary = this.summarise(record, chosen);
    return record;
  }

  private summarise(r: DrrPopRecord, chosen: QueuedRequest<T> | null): string {
    if (!chosen) {
      if (this.visits.length === 0) return 'nothing is queued: nothing to arbitrate';
      // a pop that found work but no class holding any: shedding past due times emptied them all
      if (this.visits.every((v) => v.outcome === 'empty'))
        return 'no class has work left after shedding: nothing dispatched and no credit granted';
      return 'every class with work has a blocked head: nothing dispatched and no credit granted';
    }
    const cls = chosen.ref.className;
    const left = ring(r, cls);
    const tail =
      `; ${cls} keeps ${left}` +
      (r.carry_after ? `, carry ${r.carry_after}` : '') +
      `, cursor ${r.cursor_after}`;
    const what = `${chosen.id} (cost ${chosen.ref.cost})`;
    switch (this.chosenVia) {
      case 'carry':
        return `${cls} spends the rest of its burst on ${what}${tail}`;
      case 'affordable':
        return `${cls}'s saved deficit covers ${what}${tail}`;
      case 'granted':
        return `${cls} earns its quantum and can afford ${what}${tail}`;
      case 'chosen':
        return `no head affordable after one round: ${this.bulkRounds} virtual round(s) granted in bulk, ${cls} dispatches ${what}${tail}`;
      default:
        return `${cls} dispatches ${what}${tail}`;
    }
  }
}

function ring(r: DrrPopRecord, cls: string): number {
  for (const d of r.deficits) if (d.class === cls) return d.after;
  return 0;
}
