/**
 * Plain-words account of one VTC admission decision: the virtual token counters, any lift of a
 * client that just became backlogged, the client with the smallest counter, and whether its head fits.
 */
import type { VtcAdmitDetail } from './detail';
import type { ExplanationStep } from '../../explain/types';
import { num } from '../../explain/words';

export function explainVtcAdmit(d: VtcAdmitDetail): ExplanationStep[] {
  const steps: ExplanationStep[] = [];
  // Lowest counter first; equal counters keep the order the record lists them in (first seen).
  const rows = Object.entries(d.counters)
    .map(([client, value], i) => ({ client, value, i }))
    .sort((a, b) => a.value - b.value || a.i - b.i);
  if (rows.length > 0)
    steps.push({
      text: `Counters of the clients with waiting requests, lowest first: ${rows.map((r) => `${r.client} ${num(r.value)}`).join(', ')}.`,
    });
  for (const l of d.lifts ?? [])
    steps.push({
      text: `${l.client}'s queue had been empty, so its counter is lifted from ${num(l.from)} to ${num(l.to)} (the smallest counter among the other waiting clients): idle time earns no credit.`,
      ref: { kind: 'client', name: l.client },
    });
  const c = d.chosen_client;
  if (c === null) {
    steps.push({ text: 'Result: no client has a waiting request, so nothing is admitted.', final: true });
    return steps;
  }
  const head = d.head ?? 'its head request';
  steps.push({
    text: `${c} has the smallest counter (${num(d.counters[c] ?? 0)}), so ${head} is next.`,
    ref: { kind: 'client', name: c },
  });
  if (d.head_fits) {
    const charge =
      d.charge === undefined
        ? ''
        : `; ${c}'s counter grows by ${num(d.charge)} for ${d.charge_mode === 'extend' ? 'its uncached input tokens (charge: extend)' : 'its whole input, cached or not (charge: input, as the VTC artifact)'}${d.weight === undefined ? '' : ` (that is, already divided by its weight ${num(d.weight)}: client_weights)`}`;
    steps.push({
      text: `${head} fits in this step, so it is admitted${charge}.`,
      ...(d.charge === undefined ? {} : { ref: { kind: 'param' as const, name: 'scheduler.charge' } }),
    });
    steps.push({
      text: `Result: ${head} from ${c} admitted.`,
      ref: { kind: 'client', name: c },
      final: true,
    });
  } else {
    steps.push({
      text: `${head} does not fit in this step (token budget, running limit or KV memory), so admission stops here: VTC does not skip ahead of the head.`,
    });
    steps.push({ text: `Result: nothing more admitted; ${head} waits for room.`, final: true });
  }
  return steps;
}
