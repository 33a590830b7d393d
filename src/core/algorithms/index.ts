/**
 * The list of algorithms. Every worker-local scheduler (`scheduler.policy`) and router policy
 * (`router.routing`) is one folder here exporting one descriptor (./descriptor.ts); everything that
 * needs to know the algorithms — the registries below, the scenario schema's unions, the explainers'
 * dispatch, the theorem bounds and the sweep knobs and presets — reads these two lists.
 */
import type { LocalPolicy, LocalPolicyConfig } from '../replica/local-policy';
import type { RouterPolicy, RouterPolicyConfig } from '../router/router-policy';
import type {
  ParamsOf,
  RoutingAlgorithm,
  SchedulerAlgorithm,
  SweepKnob,
  SweepPresetSpec,
} from './descriptor';
import { dfsWeight } from './dfs-weight';
import { dlpm } from './dlpm';
import { doubleq } from './doubleq';
import { edf } from './edf';
import { fcfs } from './fcfs';
import { fcfsMpq } from './fcfs-mpq';
import { kvAware } from './kv-aware';
import { leastLoaded } from './least-loaded';
import { lpm } from './lpm';
import { lrs } from './lrs';
import { perClientRr } from './per-client-rr';
import { preble } from './preble';
import { priorityFcfs } from './priority-fcfs';
import { pull } from './pull';
import { random } from './random';
import { reversePriority } from './reverse-priority';
import { roundRobin } from './round-robin';
import { sjf } from './sjf';
import { vtc } from './vtc';

/** Worker-local schedulers, in the order the scenario format lists them; the first is the default. */
export const SCHEDULER_ALGORITHMS = [
  fcfs,
  priorityFcfs,
  sjf,
  reversePriority,
  lpm,
  dfsWeight,
  vtc,
  dlpm,
  edf,
  lrs,
  fcfsMpq,
] as const;

/** Router policies, in the order the scenario format lists them; the first is the default. */
export const ROUTING_ALGORITHMS = [
  roundRobin,
  random,
  leastLoaded,
  pull,
  perClientRr,
  preble,
  doubleq,
  kvAware,
] as const;

type Schedulers = (typeof SCHEDULER_ALGORITHMS)[number];
type Routings = (typeof ROUTING_ALGORITHMS)[number];
export type SchedulerName = Schedulers['name'];
export type RoutingName = Routings['name'];

type NamesOf<T extends readonly { name: string }[]> = { -readonly [I in keyof T]: T[I]['name'] };
function namesOf<const T extends readonly { name: string }[]>(list: T): NamesOf<T> {
  // a mapped tuple: the compiler cannot follow Array.map element by element
  return list.map((d) => d.name) as NamesOf<T>;
}

/** Scheduler names (`scheduler.policy`), a tuple for zod enums. */
export const SCHEDULER_NAMES = namesOf(SCHEDULER_ALGORITHMS);
/** Routing names (`router.routing`). */
export const ROUTING_NAMES = namesOf(ROUTING_ALGORITHMS);

/** An algorithm's own parameters; one without any has none (rather than an index signature of never). */
type Own<P> = string extends keyof P ? unknown : P;
/** One scheduler's parameters tagged with its name: the members of the `scheduler` section's union. */
type SchedulerParamsOf<D> =
  D extends SchedulerAlgorithm<infer N, infer S, unknown> ? { policy: N } & Own<ParamsOf<S>> : never;
type RoutingParamsOf<D> =
  D extends RoutingAlgorithm<infer N, infer S, unknown> ? { routing: N } & Own<ParamsOf<S>> : never;
/** `scheduler.policy` and that policy's own keys (a discriminated union on `policy`). */
export type SchedulerChoice = SchedulerParamsOf<Schedulers>;
/** `router.routing` and that routing's own keys (a discriminated union on `routing`). */
export type RoutingChoice = RoutingParamsOf<Routings>;

/**
 * A worker's scheduler in a snapshot: `policy` (its name) and `policy_state` (its folder's state type),
 * a discriminated union on `policy` assembled from the descriptors.
 */
export type SchedulerState = NonNullable<ReturnType<Schedulers['described']>>;
/** A snapshot's routing: `routing` (its name) and `state` (its folder's type), discriminated on `routing`. */
export type RoutingState = NonNullable<ReturnType<Routings['described']>>;

/** The name and typed state of a worker-local policy that a descriptor here created. */
export function schedulerState(policy: LocalPolicy): SchedulerState {
  for (const d of SCHEDULER_ALGORITHMS) {
    const s = d.described(policy);
    if (s !== undefined) return s;
  }
  throw new Error(localPolicyProblem(policy.name) ?? `no scheduler describes '${policy.name}'`);
}

/** The name and typed state of a router policy that a descriptor here created. */
export function routingState(policy: RouterPolicy): RoutingState {
  for (const d of ROUTING_ALGORITHMS) {
    const s = d.described(policy);
    if (s !== undefined) return s;
  }
  throw new Error(routerPolicyProblem(policy.name) ?? `no routing describes '${policy.name}'`);
}

export function schedulerAlgorithm(name: string): Schedulers | undefined {
  return SCHEDULER_ALGORITHMS.find((d) => d.name === name);
}

export function routingAlgorithm(name: string): Routings | undefined {
  return ROUTING_ALGORITHMS.find((d) => d.name === name);
}

/** Null when `name` is a scheduler, else the reason. */
export function localPolicyProblem(name: string): string | null {
  return schedulerAlgorithm(name)
    ? null
    : `unknown scheduler policy '${name}' (known: ${SCHEDULER_NAMES.join(', ')})`;
}

/** Null when `name` is a routing, else the reason. */
export function routerPolicyProblem(name: string): string | null {
  return routingAlgorithm(name) ? null : `unknown routing '${name}' (known: ${ROUTING_NAMES.join(', ')})`;
}

/**
 * A worker-local policy by name, with its parameters read from `given` (the scenario's `scheduler`
 * section, or any object holding some of its keys; missing keys take their defaults).
 */
export function createLocalPolicy(
  name: string,
  cfg: Omit<LocalPolicyConfig, 'params'>,
  given: object = {},
): LocalPolicy {
  const d = schedulerAlgorithm(name);
  if (d === undefined) throw new Error(localPolicyProblem(name) ?? name);
  return d.build(cfg, given);
}

/** A router policy by name, with its parameters read from `given` (the scenario's `router` section). */
export function createRouterPolicy(
  name: string,
  cfg: Omit<RouterPolicyConfig, 'params'>,
  given: object = {},
): RouterPolicy {
  const d = routingAlgorithm(name);
  if (d === undefined) throw new Error(routerPolicyProblem(name) ?? name);
  return d.build(cfg, given);
}

/** Every parameter a sweep may vary, from every algorithm that declares some. */
/** A sweepable knob, with the algorithm that reads it and the scenario key that selects that algorithm. */
export interface OwnedSweepKnob extends SweepKnob {
  owner: string;
  /** `scheduler.policy` or `router.routing`; unset, it selects the first algorithm of its list. */
  selectedBy: 'scheduler.policy' | 'router.routing';
  /** The owner is what an unset `selectedBy` means. */
  ownerIsDefault: boolean;
}

export const SWEEP_KNOBS: readonly OwnedSweepKnob[] = [
  ...SCHEDULER_ALGORITHMS.flatMap((d, i) =>
    ('sweep' in d && d.sweep ? d.sweep : []).map((k) => ({
      ...k,
      owner: d.name as string,
      selectedBy: 'scheduler.policy' as const,
      ownerIsDefault: i === 0,
    })),
  ),
  ...ROUTING_ALGORITHMS.flatMap((d, i) =>
    ('sweep' in d && d.sweep ? d.sweep : []).map((k) => ({
      ...k,
      owner: d.name as string,
      selectedBy: 'router.routing' as const,
      ownerIsDefault: i === 0,
    })),
  ),
];

/** Sweeps that re-create published figures. */
export const SWEEP_PRESETS: readonly SweepPresetSpec[] = [
  ...SCHEDULER_ALGORITHMS,
  ...ROUTING_ALGORITHMS,
].flatMap((d) => ('presets' in d && d.presets ? d.presets : []));

export type { RoutingAlgorithm, SchedulerAlgorithm, SweepKnob, SweepPresetSpec } from './descriptor';
export type { AlgorithmListing, ListingLine, ListingSpec, StepsTaken } from './listing';
export type * from './details';
