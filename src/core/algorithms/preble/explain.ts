/**
 * Plain-words account of one Preble placement: how much of the prompt the global radix tree already
 * holds, whether that makes it exploit (only workers holding the prefix) or explore (every worker),
 * and the least-loaded candidate.
 */
import type { PreblePlacementDetail } from './detail';
import type { ExplanationStep } from '../../explain/types';
import { list, num, percent } from '../../explain/words';

export function explainPreblePlacement(d: PreblePlacementDetail): ExplanationStep[] {
  const what = d.request ?? 'the request';
  const steps: ExplanationStep[] = [];
  const tokens =
    d.matched_tokens !== undefined && d.prompt_len !== undefined
      ? ` (${num(d.matched_tokens)} of ${num(d.prompt_len)} tokens)`
      : '';
  steps.push({
    text: `Prefix match: ${percent(d.matched_fraction)} of ${what}'s prompt${tokens} is already cached in the cluster.`,
  });
  const holders = d.holders && d.holders.length > 0 ? list(d.holders.map((w) => `w${w}`)) : null;
  steps.push({
    text:
      d.mode === 'exploit'
        ? `That is more than half, so Preble exploits locality: only the workers holding the prefix compete${holders ? ` (${holders})` : ''}.`
        : 'That is half or less, so Preble explores: every worker competes.',
  });
  const candidates =
    d.mode === 'exploit' && d.holders && d.holders.length > 0 ? d.holders : d.loads.map((_, i) => i);
  if (d.load_kind === 'time') {
    const secs = (x: number) => `${x.toFixed(x >= 10 ? 1 : 3)} s`;
    const loads = candidates.map(
      (w) =>
        `w${w} ${secs(d.loads[w] ?? 0)} (prefill ${secs(d.prefill_loads?.[w] ?? 0)} + decode ${secs(d.decode_loads?.[w] ?? 0)}${d.tpots ? `, TPOT ${(1000 * (d.tpots[w] ?? 0)).toFixed(1)} ms` : ''})`,
    );
    steps.push({
      text: `Loads in predicted GPU time: the prefill time of what each request sent there in the last ${num(d.window_s ?? 0)} s missed in the cache, plus its outstanding requests × their max_new_tokens × its measured time per output token: ${loads.join(', ')}; the least loaded is w${d.chosen}.`,
      ref: { kind: 'param', name: 'router.preble_load' },
    });
  } else {
    const loads = candidates.map((w) => `w${w} ${num(d.loads[w] ?? 0)}`);
    steps.push({
      text: `Loads in tokens (recent missed prefill tokens plus running requests × the median output): ${loads.join(', ')}; the least loaded is w${d.chosen}.`,
      ref: { kind: 'param', name: 'router.preble_load' },
    });
  }
  if (d.rebalanced)
    steps.push({
      text: 'Rebalance: the heaviest worker was too far above the lightest, so new work was moved away from it.',
      ref: { kind: 'param', name: 'router.preble_imbalance' },
    });
  steps.push({ text: `Result: ${what} goes to worker ${d.chosen}.`, final: true });
  return steps;
}
