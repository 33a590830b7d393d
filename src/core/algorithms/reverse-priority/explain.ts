/** Plain-words account of one reverse-priority admission (BLIS: least urgent SLO class first). */
import { explainKeyedAdmit } from '../../explain/keyed';
import type { ExplanationStep } from '../../explain/types';
import { num } from '../../explain/words';
import type { ReversePriorityDetail } from './policy';

export function explainReversePriority(d: ReversePriorityDetail): ExplanationStep[] {
  const priority = -d.negated_priority;
  return explainKeyedAdmit(d, {
    rule: {
      text: "reverse-priority (BLIS) orders this worker's waiting requests by their SLO class's priority, largest number (least urgent) first, on purpose, to show priority inversion; within a priority, oldest first, then request id.",
    },
    key: `its priority is ${num(priority)} (it arrived at t = ${num(d.arrival_s)} s)`,
    others: `a priority of ${num(priority)} or less (the same priority only if it arrived no earlier)`,
    seeOthers: 'the worker view lists who waits',
  });
}
