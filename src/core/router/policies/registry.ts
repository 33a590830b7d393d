/**
 * Router policies by their scenario name (`router.routing`). Adding one is a file in this folder and a
 * line here; a name mapped to null is known to the scenario format but not implemented yet, and the
 * engine refuses it at load with a clear message.
 */
import type { RouterPolicy, RouterPolicyConfig, RouterPolicyFactory } from '../router-policy';
import { createDoubleQ } from './doubleq';
import { createKvAware } from './kv-aware';
import { createLeastLoaded } from './least-loaded';
import { createPerClientRoundRobin } from './per-client-rr';
import { createPreble } from './preble';
import { createPull } from './pull';
import { createRandom } from './random';
import { createRoundRobin } from './round-robin';

export const ROUTER_POLICIES: Readonly<Record<string, RouterPolicyFactory | null>> = {
  'round-robin': createRoundRobin,
  random: createRandom,
  'least-loaded': createLeastLoaded,
  pull: createPull,
  'per-client-rr': createPerClientRoundRobin,
  preble: createPreble,
  doubleq: createDoubleQ,
  'kv-aware': createKvAware,
};

export function implementedRouterPolicies(): string[] {
  return Object.keys(ROUTER_POLICIES).filter((k) => ROUTER_POLICIES[k] !== null);
}

/** Null when `name` can run, else the reason (unknown, or not implemented yet). */
export function routerPolicyProblem(name: string): string | null {
  if (!Object.hasOwn(ROUTER_POLICIES, name))
    return `unknown routing '${name}' (known: ${Object.keys(ROUTER_POLICIES).join(', ')})`;
  if (ROUTER_POLICIES[name] === null)
    return `routing '${name}' is not implemented yet (implemented: ${implementedRouterPolicies().join(', ')})`;
  return null;
}

export function createRouterPolicy(name: string, cfg: RouterPolicyConfig): RouterPolicy {
  const problem = routerPolicyProblem(name);
  if (problem) throw new Error(problem);
  return (ROUTER_POLICIES[name] as RouterPolicyFactory)(cfg);
}
