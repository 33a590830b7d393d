/**
 * Plain-words account of one DoubleQ dispatch: the workers holding the longest prefix (G), the
 * workers where the client still has credit (G_avail, after refills), and the worker chosen.
 */
import type { DoubleQDispatchDetail } from './detail';
import type { ExplanationStep } from '../../explain/types';
import { list, num } from '../../explain/words';

function workers(ws: readonly number[]): string {
  return ws.length === 0 ? 'none' : list(ws.map((w) => `w${w}`));
}

export function explainDoubleQDispatch(d: DoubleQDispatchDetail): ExplanationStep[] {
  const who = d.client ?? 'the client';
  const what = d.request ? `${d.request}` : 'the request';
  const steps: ExplanationStep[] = [];
  const matched = d.matched_tokens === undefined ? '' : ` (${num(d.matched_tokens)} tokens)`;
  steps.push({
    text:
      d.g.length === 0
        ? `Prefix match: no worker holds any prefix of ${what}, so G is empty.`
        : `Prefix match: the workers holding the longest cached prefix of ${what}${matched} are G = {${workers(d.g)}}.`,
  });
  if (d.refills > 0) {
    const q = d.worker_quantum === undefined ? 'the worker quantum Q^w' : `Q^w = ${num(d.worker_quantum)}`;
    const times = d.refills === 1 ? 'once' : `${d.refills} times`;
    steps.push({
      text: `Refill: ${who} had no worker with a positive deficit, so ${q} was added to all of its worker deficits (${times}).`,
      ref: { kind: 'param', name: 'router.worker_quantum' },
    });
  }
  const deficits = d.g_avail.map((w) => `w${w} ${num(d.deficits[w] ?? 0)}`);
  steps.push({
    text: `Credit: the workers where ${who} still has a positive deficit are G_avail = {${workers(d.g_avail)}}${deficits.length ? ` (deficits ${deficits.join(', ')})` : ''}.`,
    ...(d.client ? { ref: { kind: 'client' as const, name: d.client } } : {}),
  });
  const both = d.g.filter((w) => d.g_avail.includes(w));
  const queue = `queue ${num(d.queue_lens[d.chosen] ?? 0)}`;
  steps.push({
    text:
      both.length > 0
        ? `Choice: G ∩ G_avail = {${workers(both)}} is not empty, so locality wins: the shortest queue among them is w${d.chosen} (${queue}).`
        : `Choice: G ∩ G_avail is empty, so fairness wins over locality: the shortest queue in G_avail is w${d.chosen} (${queue}).`,
  });
  if (d.charged_tokens !== undefined)
    steps.push({
      text:
        d.charge === 'extend'
          ? `Charge: ${who}'s deficit at w${d.chosen} falls by w_e × ${num(d.charged_tokens)}, the prompt tokens w${d.chosen} does not already hold (charge: extend).`
          : `Charge: ${who}'s deficit at w${d.chosen} falls by w_e × ${num(d.charged_tokens)}, its whole prompt, cached or not (charge: input, Algorithm 2).`,
      ref: { kind: 'param', name: 'router.charge' },
    });
  steps.push({ text: `Result: ${what} goes to worker ${d.chosen}.`, final: true });
  return steps;
}
