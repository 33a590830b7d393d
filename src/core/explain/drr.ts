/**
 * Plain-words account of one DRR arbitration (the router's policy-class queues), built only from
 * its DrrPopRecord: the carry tried first (V2), each class the ring scan visited from the cursor,
 * the bulk virtual rounds when nobody could pay after one round, the final scan, and where the
 * winner's credit, the carry and the cursor end up.
 */
import type { ClassVisit, DrrPopRecord } from '../drr/types';
import { type ExplanationRef, type ExplanationStep, stepsToText } from './types';
import { count, lateText, list as listWords, num } from './words';

export interface DrrExplainOptions {
  /**
   * Quantum per class name (from the policy or the snapshot). Without it the quanta are read back
   * from the record's deficit changes, which works except when a class earned its quantum and then
   * emptied in the same pop; the text then says so without the sum.
   */
  quanta?: Readonly<Record<string, number>>;
}

export function explainDrrDecision(record: DrrPopRecord, opts: DrrExplainOptions = {}): ExplanationStep[] {
  const ref = (name: string): ExplanationRef => ({ kind: 'class', name, profile: record.profile });
  const quantum = (v: ClassVisit): number | undefined => quantumOf(v, opts);
  const steps: ExplanationStep[] = [];

  // Requests shed past their due time, told at the first visit of their class (where the pop shed them).
  const shed = new Map<string, { id: string; overdue_ms: number }[]>();
  for (const e of record.expired ?? []) {
    const list = shed.get(e.class);
    if (list) list.push(e);
    else shed.set(e.class, [e]);
  }
  const shedBefore = (c: string): void => {
    const list = shed.get(c);
    if (!list) return;
    shed.delete(c);
    steps.push({ text: shedText(c, list), ref: ref(c) });
  };

  if (record.visits.length === 0 && record.chosen === null) {
    const carry =
      record.variant === 'v2' && record.carry_before ? `; ${record.carry_before} is no longer the carry` : '';
    steps.push({
      text: `Result: nothing is queued in any class, so there is nothing to arbitrate${carry}.`,
      final: true,
    });
    return steps;
  }

  const start = record.cursor_before ?? '(none)';
  const carryVisit = record.visits.find((v) => v.phase === 'carry');
  const scan = record.visits.filter((v) => v.phase === 'scan');
  const final = record.visits.filter((v) => v.phase === 'final');

  if (carryVisit) {
    shedBefore(carryVisit.class);
    steps.push({ text: carryText(carryVisit, start), ref: ref(carryVisit.class) });
  } else if (record.variant === 'v1')
    steps.push({
      text: `Start: under the docs' rule (V1) nothing carries over between pops; the ring scan starts at ${start} (the cursor).`,
      ref: ref(start),
    });
  else
    steps.push({
      text: `Start: no class carries credit from its last turn, so the ring scan starts at ${start} (the cursor).`,
      ref: ref(start),
    });

  for (const v of scan) {
    shedBefore(v.class);
    steps.push({ text: scanText(v, quantum(v)), ref: ref(v.class) });
  }
  for (const c of [...shed.keys()]) shedBefore(c);

  if (record.bulk_rounds !== null) steps.push(bulkStep(record, scan, final, opts, ref));
  if (final.length > 0)
    steps.push({ text: finalText(final, start), ref: ref(final[final.length - 1].class) });

  steps.push(resultStep(record, carryVisit, scan, final, opts, ref));
  return steps;
}

/** The numbered account as text, one step per line. */
export function explainDrrText(record: DrrPopRecord, opts: DrrExplainOptions = {}): string {
  return stepsToText(explainDrrDecision(record, opts));
}

// ---- the steps -----------------------------------------------------------------------------------------

/**
 * Dynamo v1.6's shedding: a class looked at by a pop first drops every head whose due time (set by a
 * request classifier) is before the pop's time; they leave unserved and cost nothing.
 */
function shedText(c: string, list: readonly { id: string; overdue_ms?: number }[]): string {
  const each = list.map((e) =>
    typeof e.overdue_ms === 'number' ? `${e.id} (${lateText(e.overdue_ms)})` : e.id,
  );
  const one = list.length === 1;
  return (
    `Shed: ${listWords(each)} in ${c} ${one ? 'was' : 'were'} due before this pop, so ${c} drops ${one ? 'it' : 'them'} unserved before its head is read: ` +
    `since Dynamo v1.6 a queued request whose due time has passed leaves its class without being dispatched (a cluster run refuses it with HTTP 429). ` +
    `Nothing is charged for ${one ? 'it' : 'them'}: ${c}'s credit is not reduced, and the cursor and the carry do not move for ${one ? 'it' : 'them'}.`
  );
}

function credit(n: number): string {
  return `${count(n, 'token')} of credit`;
}

function carryText(v: ClassVisit, start: string): string {
  const c = v.class;
  const had = `Carry: class ${c} still has ${credit(v.deficit_before)} from its last turn`;
  const scanFrom = `the ring scan starts at ${start} (the cursor)`;
  switch (v.outcome) {
    case 'affordable':
      return `${had}; its head ${v.head_id} costs ${v.head_cost} ≤ ${v.deficit_before}, so ${c} continues its burst without a new quantum.`;
    case 'unaffordable':
      return `${had}, but its head ${v.head_id} costs ${v.head_cost} > ${v.deficit_before}, so its burst ends here; it keeps the credit and ${scanFrom}.`;
    case 'blocked':
      return `${had}, but its head ${v.head_id} cannot be dispatched right now (blocked); it keeps the credit and ${scanFrom}.`;
    case 'empty':
      return `Carry: class ${c} had ${credit(v.deficit_before)} left, but its queue is empty now, so the credit resets to 0; ${scanFrom}.`;
    default:
      return `Carry: class ${c} is tried first (${v.outcome}); ${scanFrom}.`;
  }
}

function scanText(v: ClassVisit, q: number | undefined): string {
  const c = v.class;
  const b = v.deficit_before;
  const head = `its head ${v.head_id} costs ${v.head_cost}`;
  switch (v.outcome) {
    case 'empty':
      return `${c} is empty: its credit resets to 0${b > 0 ? ` (it had ${b})` : ''}.`;
    case 'blocked':
      return `${c} is blocked: its head ${v.head_id} cannot be dispatched right now, so ${c} keeps its ${b} credit and earns no quantum.`;
    case 'affordable':
      return `${c}: ${head} ≤ its ${b} saved credit, so ${c} dispatches ${v.head_id} without a new quantum.`;
    case 'granted':
      return q === undefined
        ? `${c}: ${head}, more than its ${b} credit; ${c} earns its quantum, which covers the cost, so ${c} dispatches ${v.head_id}.`
        : `${c}: ${head}, more than its ${b} credit; ${c} earns its quantum: ${b} + ${q} = ${b + q} ≥ ${v.head_cost}, so ${c} dispatches ${v.head_id}.`;
    case 'unaffordable':
      return `${c}: ${head}, more than its ${b} credit; ${c} earns its quantum: ${b} + ${q ?? v.deficit_after - b} = ${v.deficit_after} < ${v.head_cost}, still not enough.`;
    default:
      return `${c}: ${v.outcome} (credit ${b} → ${v.deficit_after}).`;
  }
}

function bulkStep(
  record: DrrPopRecord,
  scan: readonly ClassVisit[],
  final: readonly ClassVisit[],
  opts: DrrExplainOptions,
  ref: (name: string) => ExplanationRef,
): ExplanationStep {
  const rounds = record.bulk_rounds ?? 0;
  const waiting = scan.filter((v) => v.outcome === 'unaffordable');
  const needs: string[] = [];
  const grants: string[] = [];
  let setter: string | null = null;
  let best = Number.POSITIVE_INFINITY;
  for (const v of waiting) {
    const q = quantumOf(v, opts) ?? v.deficit_after - v.deficit_before;
    const gap = (v.head_cost ?? 0) - v.deficit_after;
    const need = q > 0 ? Math.ceil(gap / q) : Number.POSITIVE_INFINITY;
    if (need < best) {
      best = need;
      setter = v.class;
    }
    needs.push(`${v.class} would need ⌈${gap} / ${q}⌉ = ${num(need)}`);
    grants.push(`${v.class} ${v.deficit_after} → ${afterBulk(v, q, rounds, final, record)}`);
  }
  const blocked = scan.some((v) => v.outcome === 'blocked') ? ' Blocked classes get nothing.' : '';
  const text =
    `Bulk credit: no class could afford its head after one round; the smallest number of extra rounds that lets some class pay is ${rounds} (${needs.join(', ')}), ` +
    `so every waiting class gets ${rounds} × its quantum at once: ${grants.join(', ')}.${blocked}`;
  return setter ? { text, ref: ref(setter) } : { text };
}

/** A waiting class's credit right after the bulk grant: read from the record where it shows, else computed. */
function afterBulk(
  v: ClassVisit,
  q: number,
  rounds: number,
  final: readonly ClassVisit[],
  r: DrrPopRecord,
): number {
  const seen = final.find((f) => f.class === v.class);
  if (seen) return seen.deficit_before;
  if (r.chosen?.class !== v.class) {
    const d = r.deficits.find((x) => x.class === v.class);
    if (d) return d.after;
  }
  return v.deficit_after + q * rounds;
}

function finalText(final: readonly ClassVisit[], start: string): string {
  const parts = final.map((v) =>
    v.outcome === 'chosen'
      ? `${v.class} can now pay for ${v.head_id} (${v.head_cost} ≤ ${v.deficit_before}) and wins as the first class from the cursor that can pay`
      : `${v.class} is still short (${v.head_id} costs ${v.head_cost}, it has ${v.deficit_before})`,
  );
  return `Final scan from ${start}: ${parts.join('; ')}.`;
}

function resultStep(
  record: DrrPopRecord,
  carryVisit: ClassVisit | undefined,
  scan: readonly ClassVisit[],
  final: readonly ClassVisit[],
  opts: DrrExplainOptions,
  ref: (name: string) => ExplanationRef,
): ExplanationStep {
  const chosen = record.chosen;
  const cursor = record.cursor_after ?? '(none)';
  if (!chosen) {
    const lostCarry =
      record.variant === 'v2' && record.carry_before && !record.carry_after
        ? `; ${record.carry_before} keeps its credit but is no longer the carry`
        : '';
    const why =
      record.bulk_rounds !== null
        ? 'no class could pay for its head'
        : record.visits.every((v) => v.outcome === 'empty')
          ? 'shedding left no class with work, so no credit is granted'
          : 'every class with work has a blocked head, so no credit is granted (no bulk rounds)';
    return {
      text: `Result: nothing dispatched: ${why}${lostCarry}; the next scan still starts at ${cursor}.`,
      final: true,
    };
  }

  const c = chosen.class;
  const winner =
    (carryVisit && carryVisit.outcome === 'affordable' ? carryVisit : undefined) ??
    scan.find((v) => v.outcome === 'affordable' || v.outcome === 'granted') ??
    final.find((v) => v.outcome === 'chosen');
  const left = record.deficits.find((d) => d.class === c)?.after ?? winner?.deficit_after ?? 0;
  let paidFrom: number | undefined;
  if (winner) {
    if (winner.outcome === 'granted') {
      const q = quantumOf(winner, opts);
      paidFrom = q === undefined ? undefined : winner.deficit_before + q;
    } else paidFrom = winner.deficit_before;
  }
  const emptied = paidFrom !== undefined && paidFrom - chosen.cost > 0 && left === 0;
  const viaCarry = winner !== undefined && winner.phase === 'carry';

  const parts = [`Result: ${chosen.id} from ${c} (cost ${chosen.cost})`];
  if (emptied) parts.push(`${c}'s queue is now empty, so its credit resets to 0`);
  else if (left === 0)
    parts.push(
      record.variant === 'v2'
        ? `${c} has no credit left, so nothing carries over`
        : `${c} has no credit left`,
    );
  else if (record.variant === 'v2')
    parts.push(
      record.carry_after === c
        ? `${c} keeps ${left} credit and ${viaCarry ? 'stays' : 'becomes'} the carry`
        : `${c} keeps ${left} credit`,
    );
  else if (record.cursor_after === c) {
    parts.push(
      `${c} keeps ${left} credit and its next head is already affordable, so the cursor stays on ${c} (docs' rule, V1)`,
    );
    return { text: `${parts.join('; ')}.`, ref: ref(c), final: true };
  } else parts.push(`${c} keeps ${left} credit`);
  parts.push(`the next scan starts at ${cursor}`);
  return { text: `${parts.join('; ')}.`, ref: ref(c), final: true };
}

/** The quantum of a visited class: recorded, given, or read back from the visit's deficit change. */
function quantumOf(v: ClassVisit, opts: DrrExplainOptions): number | undefined {
  if (typeof v.quantum === 'number') return v.quantum;
  const given = opts.quanta?.[v.class];
  if (given !== undefined) return given;
  if (v.phase !== 'scan') return undefined;
  if (v.outcome === 'unaffordable') return v.deficit_after - v.deficit_before;
  // After a take the class kept deficit_after = before + quantum − cost, unless it emptied (then 0).
  if (v.outcome === 'granted' && v.deficit_after > 0 && v.head_cost !== null)
    return v.deficit_after + v.head_cost - v.deficit_before;
  return undefined;
}

/** Quantum per class from a DRR snapshot (what the UI and the sandbox already hold). */
export function quantaFromSnapshot(snapshot: {
  classes: readonly { name: string; quantum: number }[];
}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of snapshot.classes) out[c.name] = c.quantum;
  return out;
}
