/**
 * Plain-words account of one fcfs-mpq admission: which priority group the round robin serves this
 * step, why the request is in that group, and the group's per-step limit.
 */
import type { FcfsMpqDetail } from './detail';
import type { ExplanationStep } from '../../explain/types';
import { list, num, percent } from '../../explain/words';

function range(g: number): string {
  return g === 0 ? 'at most 10 %' : `more than ${g * 10} % and at most ${(g + 1) * 10} %`;
}

export function explainFcfsMpq(d: FcfsMpqDetail): ExplanationStep[] {
  const steps: ExplanationStep[] = [];
  const where = d.worker === undefined ? '' : ` on worker ${d.worker}`;
  const sizes = d.group_sizes
    .map((n, g) => (n > 0 ? `group ${g}: ${num(n)}` : null))
    .filter((x): x is string => x !== null);
  steps.push({
    text: `Groups${where}: every waiting request sits in one of 10 priority groups by the share of its prompt found in this worker's cache when it was filed (group 0: up to 10 %; group g: above g × 10 %, up to (g + 1) × 10 %); waiting at this step's start, before its admissions: ${sizes.length > 0 ? sizes.join(', ') : 'none'}.`,
  });
  const skipped =
    d.skipped_empty.length > 0
      ? ` Groups ${list(d.skipped_empty.map(String))} were next but empty, so they were passed.`
      : '';
  steps.push({
    text: `Round robin: this step serves group ${d.group} (Preble visits the groups from 9 down to 0 and around, one group per step).${skipped}`,
  });
  steps.push({
    text: `This request's hit ratio was ${percent(d.hit_ratio)} (${range(d.group)}), so it is in group ${d.group}; ${num(d.cached)} prompt tokens are cached now.`,
  });
  steps.push({
    text: `Within the group requests go oldest first; this one is number ${d.rank + 1}. The group may admit up to (${d.group} + 1) × k = ${num(d.limit)} requests this step; ${num(d.admitted_before)} went before it${d.passed_over > 0 ? `, and ${num(d.passed_over)} that did not fit in memory, or whose uncached prompt would take the step's new prefill tokens to Preble's cap (max_prefill_num_token), were passed over (fcfs-mpq stops only at one that fits until its cached prefix is locked)` : ''}.`,
    ref: { kind: 'param', name: 'scheduler.mpq_k' },
  });
  steps.push({ text: 'Result: admitted.', final: true });
  return steps;
}
