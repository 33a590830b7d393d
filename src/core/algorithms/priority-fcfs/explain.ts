/** Plain-words account of one priority-fcfs admission (BLIS: most urgent SLO class first). */
import { explainKeyedAdmit } from '../../explain/keyed';
import type { ExplanationStep } from '../../explain/types';
import { num } from '../../explain/words';
import type { PriorityFcfsDetail } from './policy';

export function explainPriorityFcfs(d: PriorityFcfsDetail): ExplanationStep[] {
  return explainKeyedAdmit(d, {
    rule: {
      text: "priority-fcfs (BLIS) orders this worker's waiting requests by their SLO class's priority, smallest number (most urgent) first: critical 0, standard 1, batch 5, sheddable 6, background 7; within a priority, oldest first, then request id.",
    },
    key: `its priority is ${num(d.priority)} (it arrived at t = ${num(d.arrival_s)} s)`,
    others: `a priority of ${num(d.priority)} or more (the same priority only if it arrived no earlier)`,
    seeOthers: 'the worker view lists who waits',
  });
}
