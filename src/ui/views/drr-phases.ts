/**
 * The DRR visit animation as data: one pop's record becomes a list of phases a viewer can follow — the
 * quantum earned (the bar rises to deficit + quantum), the cost paid (it falls by the head's cost), an
 * empty class reset, a blocked class's credit frozen, the bulk credit's virtual rounds counted up, and
 * last the cursor moving on. Pure: `phasesOf` builds the list, `frameAt` says what each bar shows at a
 * moment, so the ring's hooks (`drr-bar` width ∝ shown deficit) hold at every animation frame.
 */
import type { ClassVisit, DrrPopRecord } from '../../core/drr/types';

/** Dynamo's five visit rules and the charging rules, as the rules panel lists them. */
export type RuleId = 'empty' | 'blocked' | 'saved' | 'earn' | 'short' | 'carry' | 'take' | 'bulk' | 'cursor';

export const VISIT_RULES: readonly { id: RuleId; text: string }[] = [
  { id: 'empty', text: 'Empty class: deficit reset to 0, move on' },
  { id: 'blocked', text: 'Blocked head: keep the deficit, earn nothing, move on' },
  { id: 'saved', text: 'Saved deficit ≥ head cost: take the head' },
  { id: 'earn', text: 'Else earn one quantum; now ≥ head cost: take it' },
  { id: 'short', text: 'Still short: keep the credit, move on' },
];

export const CHARGE_RULES: readonly { id: RuleId; text: string }[] = [
  { id: 'take', text: 'Take: deficit − head cost; a class left empty resets to 0' },
  { id: 'carry', text: 'Carry (V2): a class that took and kept credit is tried first, no new quantum' },
  {
    id: 'bulk',
    text: 'No head affordable after a full scan: every class with a head earns the same number of virtual rounds, then a final scan',
  },
  { id: 'cursor', text: 'After a take the cursor moves to the next class' },
];

export type PhaseKind = 'earn' | 'pay' | 'reset' | 'frozen' | 'short' | 'bulk' | 'cursor';

export interface Phase {
  kind: PhaseKind;
  /** The class whose bar moves (all candidates for `bulk`, none for `cursor`). */
  classes: string[];
  /** Deficit at the phase's start and end, per class in `classes`. */
  from: number[];
  to: number[];
  rule: RuleId;
  /** Index of the record's visit this phase belongs to (-1 for bulk and cursor). */
  visit: number;
  /** Bulk only: the number of virtual rounds. */
  rounds?: number;
  /** Natural duration in ms, before any speed-up. */
  ms: number;
}

export const PHASE_MS = { earn: 550, pay: 550, reset: 400, frozen: 600, short: 350, cursor: 450 } as const;
/** A bulk grant counts up at this pace, in at most BULK_MAX_TICKS visible steps. */
export const BULK_ROUND_MS = 260;
export const BULK_MAX_TICKS = 10;

/** The rule a visit shows. */
export function ruleOf(v: ClassVisit): RuleId {
  switch (v.outcome) {
    case 'empty':
      return 'empty';
    case 'blocked':
      return 'blocked';
    case 'affordable':
      return v.phase === 'carry' ? 'carry' : 'saved';
    case 'granted':
      return 'earn';
    case 'unaffordable':
      return v.phase === 'carry' ? 'carry' : 'short';
    case 'chosen':
      return 'take';
    case 'short':
      return 'short';
  }
}

/** The record's phases in order. `quantumOf` gives each class's quantum (visits may carry their own). */
export function phasesOf(rec: DrrPopRecord, quantumOf: ReadonlyMap<string, number>): Phase[] {
  const out: Phase[] = [];
  const q = (v: ClassVisit) => v.quantum ?? quantumOf.get(v.class) ?? 0;
  // deficits as the animation has them, to start the bulk step from
  const level = new Map<string, number>(rec.deficits.map((d) => [d.class, d.before]));
  const candidates: string[] = [];
  let bulkDone = false;
  const one = (kind: PhaseKind, v: ClassVisit, i: number, from: number, to: number, rule: RuleId) => {
    out.push({
      kind,
      classes: [v.class],
      from: [from],
      to: [to],
      rule,
      visit: i,
      ms: PHASE_MS[kind as 'earn'],
    });
    level.set(v.class, to);
  };
  const bulk = () => {
    if (bulkDone || rec.bulk_rounds === null) return;
    bulkDone = true;
    const k = rec.bulk_rounds;
    const from = candidates.map((c) => level.get(c) ?? 0);
    const to = candidates.map((c, j) => from[j] + k * (quantumOf.get(c) ?? 0));
    out.push({
      kind: 'bulk',
      classes: [...candidates],
      from,
      to,
      rule: 'bulk',
      visit: -1,
      rounds: k,
      ms: Math.min(k, BULK_MAX_TICKS) * BULK_ROUND_MS + 200,
    });
    candidates.forEach((c, j) => {
      level.set(c, to[j]);
    });
  };
  // A take charges the head's cost; a class its take left empty then resets to 0 (a phase of its own, so
  // the bar stops at what the cost leaves and the state line says the cost, not cost + reset).
  const payThenReset = (v: ClassVisit, i: number, from: number, d1: number, rule: RuleId) => {
    const left = v.head_cost === null ? d1 : Math.max(0, from - v.head_cost);
    one('pay', v, i, from, left, rule);
    if (left !== d1) one('reset', v, i, left, d1, 'take');
  };
  rec.visits.forEach((v, i) => {
    if (v.phase === 'final') bulk();
    const d0 = v.deficit_before;
    const d1 = v.deficit_after;
    switch (v.outcome) {
      case 'empty':
        one('reset', v, i, d0, 0, 'empty');
        break;
      case 'blocked':
        one('frozen', v, i, d0, d0, 'blocked');
        break;
      case 'affordable':
        payThenReset(v, i, d0, d1, v.phase === 'carry' ? 'carry' : 'saved');
        break;
      case 'granted': {
        const peak = d0 + q(v);
        one('earn', v, i, d0, peak, 'earn');
        payThenReset(v, i, peak, d1, 'take');
        break;
      }
      case 'unaffordable':
        if (v.phase === 'carry') one('short', v, i, d0, d1, 'carry');
        else one('earn', v, i, d0, d1, 'short');
        if (!candidates.includes(v.class)) candidates.push(v.class);
        break;
      case 'chosen':
        payThenReset(v, i, d0, d1, 'take');
        break;
      case 'short':
        one('short', v, i, d0, d1, 'short');
        break;
    }
  });
  bulk();
  if (rec.chosen)
    out.push({
      kind: 'cursor',
      classes: [],
      from: [],
      to: [],
      rule: 'cursor',
      visit: -1,
      ms: PHASE_MS.cursor,
    });
  return out;
}

/** Highest deficit any phase shows (so the bar scale holds the peaks, e.g. bulk credit's 10,000). */
export function phasePeak(phases: readonly Phase[]): number {
  let m = 0;
  for (const p of phases) for (const v of [...p.from, ...p.to]) m = Math.max(m, v);
  return m;
}

export interface Frame {
  /** Deficit each moving class shows now (classes not listed keep their start value). */
  deficits: Map<string, number>;
  /** Index of the running phase (phases.length when over). */
  phase: number;
  /** Bulk: the virtual round shown (1..rounds), else null. */
  round: number | null;
  /** Earn phases: where the earned quantum lands (the target tick), per class. */
  target: { cls: string; value: number } | null;
}

/**
 * What the animation shows `t` ms after its start, phases scaled by `speed` (2 = twice as fast).
 * `start` holds every class's deficit before the pop.
 */
export function frameAt(
  phases: readonly Phase[],
  start: ReadonlyMap<string, number>,
  t: number,
  speed = 1,
): Frame {
  const deficits = new Map(start);
  let at = 0;
  for (let i = 0; i < phases.length; i++) {
    const p = phases[i];
    const ms = p.ms / speed;
    if (t < at + ms) {
      const f = Math.max(0, Math.min(1, (t - at) / ms));
      let round: number | null = null;
      if (p.kind === 'bulk' && p.rounds) {
        // count the rounds up in visible steps: round r of k shows `from + r·quantum`
        const ticks = Math.min(p.rounds, BULK_MAX_TICKS);
        const tick = Math.min(ticks, Math.floor(f * (ticks + 1)));
        round = Math.max(0, Math.round((tick / ticks) * p.rounds));
        p.classes.forEach((c, j) => {
          const per = p.rounds ? (p.to[j] - p.from[j]) / p.rounds : 0;
          deficits.set(c, p.from[j] + per * (round ?? 0));
        });
      } else {
        const e = f < 0.15 ? 0 : f > 0.85 ? 1 : (f - 0.15) / 0.7;
        p.classes.forEach((c, j) => {
          deficits.set(c, p.from[j] + (p.to[j] - p.from[j]) * e);
        });
      }
      return {
        deficits,
        phase: i,
        round,
        target: p.kind === 'earn' ? { cls: p.classes[0], value: p.to[0] } : null,
      };
    }
    at += ms;
    p.classes.forEach((c, j) => {
      deficits.set(c, p.to[j]);
    });
  }
  return { deficits, phase: phases.length, round: null, target: null };
}

export function totalMs(phases: readonly Phase[]): number {
  return phases.reduce((s, p) => s + p.ms, 0);
}
