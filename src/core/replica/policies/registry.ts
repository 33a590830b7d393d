/**
 * Worker-local queue policies by their scenario name (`scheduler.policy`). Adding an algorithm is one
 * file in this folder and one line here; a name mapped to null is known to the scenario format but
 * not implemented yet, and the engine refuses it at load with a clear message.
 */
import type { LocalPolicy, LocalPolicyConfig, LocalPolicyFactory } from '../local-policy';
import { createDfsWeight } from './dfs-weight';
import { createDlpm } from './dlpm';
import { createEdf } from './edf';
import { createFcfs } from './fcfs';
import { createLpm } from './lpm';
import { createLrs } from './lrs';
import { createPriorityFcfs } from './priority-fcfs';
import { createReversePriority } from './reverse-priority';
import { createSjf } from './sjf';
import { createVtc } from './vtc';

export const LOCAL_POLICIES: Readonly<Record<string, LocalPolicyFactory | null>> = {
  fcfs: createFcfs,
  'priority-fcfs': createPriorityFcfs,
  sjf: createSjf,
  'reverse-priority': createReversePriority,
  lpm: createLpm,
  'dfs-weight': createDfsWeight,
  vtc: createVtc,
  dlpm: createDlpm,
  edf: createEdf,
  lrs: createLrs,
};

/** Names that work today, in registry order. */
export function implementedLocalPolicies(): string[] {
  return Object.keys(LOCAL_POLICIES).filter((k) => LOCAL_POLICIES[k] !== null);
}

/** Null when `name` can run, else the reason (unknown, or not implemented yet). */
export function localPolicyProblem(name: string): string | null {
  if (!Object.hasOwn(LOCAL_POLICIES, name))
    return `unknown scheduler policy '${name}' (known: ${Object.keys(LOCAL_POLICIES).join(', ')})`;
  if (LOCAL_POLICIES[name] === null)
    return `scheduler policy '${name}' is not implemented yet (implemented: ${implementedLocalPolicies().join(', ')})`;
  return null;
}

export function createLocalPolicy(name: string, cfg: LocalPolicyConfig): LocalPolicy {
  const problem = localPolicyProblem(name);
  if (problem) throw new Error(problem);
  return (LOCAL_POLICIES[name] as LocalPolicyFactory)(cfg);
}
