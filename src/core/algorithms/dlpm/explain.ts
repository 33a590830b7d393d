/**
 * Plain-words account of one DLPM admission pass on a worker: the prefix-match order, the clients
 * passed over for a non-positive deficit, the refill when nobody waiting had credit, and what was
 * admitted.
 */
import type { DlpmAdmitDetail, DlpmOrderEntry } from './detail';
import type { ExplanationStep } from '../../explain/types';
import { list, num } from '../../explain/words';

/** How many waiting requests the order step names before summarising the rest. */
const SHOWN = 8;

export function explainDlpmAdmit(d: DlpmAdmitDetail): ExplanationStep[] {
  const steps: ExplanationStep[] = [];
  const where = d.worker === undefined ? '' : ` on worker ${d.worker}`;
  if (d.order.length === 0) {
    steps.push({ text: `Result: nothing is waiting${where}, so nothing is admitted.`, final: true });
    return steps;
  }
  const shown = d.order.slice(0, SHOWN).map(orderItem);
  const more = d.order.length > SHOWN ? `, and ${d.order.length - SHOWN} more` : '';
  steps.push({
    text: `Order: the waiting requests${where} sorted by cached prefix, longest first: ${shown.join(', ')}${more}.${momentsNote(d.order.slice(0, SHOWN))}`,
  });

  for (const s of d.skipped)
    steps.push({
      text: `${s.client} is skipped: its deficit is ${num(s.deficit)}, not positive, so its requests wait.`,
      ref: { kind: 'client', name: s.client },
    });

  if (d.refill) {
    const who = d.refill.clients.length > 0 ? `: ${list(d.refill.clients)}` : '';
    steps.push({
      text: `Refill: no client with waiting requests had a positive deficit, so every client at or below 0 gets the quantum Q^u = ${num(d.refill.quantum)}${who}.`,
      ref: { kind: 'param', name: 'scheduler.quantum' },
    });
  }

  for (const e of d.order) {
    if (e.outcome === 'admitted')
      steps.push({
        text:
          e.charge === undefined
            ? `${e.request} (${e.client}) is admitted: ${e.client}'s deficit ${num(e.deficit)} is positive and the request fits.`
            : `${e.request} (${e.client}) is admitted: ${e.client}'s deficit ${num(e.deficit)} is positive and the request fits; ${e.client} is charged ${num(e.charge)} (deficit ${num(e.deficit)} → ${num(e.deficit - e.charge)}).`,
        ref: { kind: 'client', name: e.client },
      });
    else if (e.outcome === 'no-room')
      steps.push({
        text: `${e.request} (${e.client}) does not fit in this step (token budget, running limit or KV memory), so it waits.`,
        ref: { kind: 'client', name: e.client },
      });
  }

  steps.push({
    text:
      d.admitted.length > 0
        ? `Result: admitted ${list(d.admitted)}${where}.`
        : `Result: nothing admitted${where} this step.`,
    final: true,
  });
  return steps;
}

function orderItem(e: DlpmOrderEntry): string {
  const earlier = e.outcome === undefined ? ', admitted earlier in this step' : '';
  return `${e.request} of ${e.client} (${num(e.prefix_match)} tokens cached, deficit ${num(e.deficit)}${earlier})`;
}

/**
 * Each listed deficit is its client's q_i when the scan reached that request, so one client's
 * requests can show different values (tester F8: mallory 1031, 2283, 883, 883 with no word why).
 * Say so for every client listed with more than one value.
 */
function momentsNote(shown: DlpmOrderEntry[]): string {
  const byClient = new Map<string, number[]>();
  for (const e of shown) byClient.set(e.client, [...(byClient.get(e.client) ?? []), e.deficit]);
  const mixed = [...byClient].filter(([, ds]) => new Set(ds).size > 1);
  if (mixed.length === 0) return '';
  const who = mixed.map(([c, ds]) => `${c}'s deficits (${ds.map(num).join(', ')})`);
  const whose = mixed.length === 1 ? 'its' : "each client's";
  return ` Each deficit is its client's value at the moment the scan reached that request: ${list(who)} are ${whose} values at successive moments of this one batch step, as admissions in the step charged it and any refill topped it up.`;
}
