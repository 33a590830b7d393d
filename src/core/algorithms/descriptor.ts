/**
 * What every algorithm folder exports: one descriptor. A worker-local scheduler (the scenario's
 * `scheduler.policy`) or a router policy (`router.routing`) is described by its name, the zod shape of
 * its own parameters (the keys it reads from its scenario section), a factory, and optionally an
 * explainer for its decision detail, a fairness bound and the parameters a sweep may vary. The
 * registries, the scenario schema's unions, `explainDecision`, the theorem bounds and the sweep
 * presets are all derived from the list of descriptors in ./index.ts: a new scheduler is one folder
 * and one entry in that list.
 */
import { z } from 'zod';
import type { ExplanationStep } from '../explain/types';
import type { LocalPolicy, LocalPolicyConfig } from '../replica/local-policy';
import type { RouterPolicy, RouterPolicyConfig } from '../router/router-policy';
import type { AlgorithmDetail } from './details';
import type { ListingSpec } from './listing';
import type { Prioritizer, PrioritizerCost } from './shared/prioritizer';

/** A parameter a sweep may vary (the key is a dotted scenario path). */
export interface SweepKnob {
  key: string;
  label: string;
  unit: string;
  integer: boolean;
  /** Default when the scenario does not set it. */
  fallback: number;
  min: number;
  max: number;
}

/** A sweep that re-creates a published figure on a shipped scenario. */
export interface SweepPresetSpec {
  id: string;
  title: string;
  /** Shipped scenario id. */
  scenario: string;
  key: string;
  from: number;
  to: number;
  points: number;
  scale: 'linear' | 'log';
  /** Extra runs for comparison: a label and the overrides that make each. */
  baselines: { label: string; sets: string[] }[];
  /** What the preset shows against the paper, when it does not re-create the figure (shown in the dialog). */
  note?: string;
}

/** Which fairness theorem a scheduler carries on one worker, and the shape of its bound. */
export interface BoundSpec {
  /** How texts name the algorithm, e.g. 'DLPM'. */
  label: string;
  /** The statement, e.g. 'DLPM Theorem 4.1'. */
  theorem: string;
  /** 'dlpm': 2·(U + Q^u) with U = w_e·L_input + w_q·M; 'vtc': 2·max(w_e·L_input, w_q·M). */
  shape: 'dlpm' | 'vtc';
}

/** How a routing carries the local schedulers' bounds over |W| workers (|W| × the local bound). */
export interface ComposeSpec {
  /**
   * 'own': the routing has its own theorem (DoubleQ's Theorem 5.1), which applies on any number of
   * workers and only over the `locals` schedulers; 'spread': the local bounds add up over the workers
   * (per-client round-robin, Appendix A.3), on more than one worker.
   */
  kind: 'own' | 'spread';
  /** How texts name the routing, e.g. 'DoubleQ'. */
  label: string;
  /** The statement ('own') or the suffix after the local one's label ('spread'). */
  theorem: string;
  /** How a text names it among the alternatives, e.g. 'DoubleQ routing (Theorem 5.1)'. */
  phrase: string;
  /** The schedulers it composes. */
  locals: readonly string[];
  reason: (workers: number) => string;
}

interface Common<Name extends string, Shape extends z.ZodRawShape> {
  readonly name: Name;
  /** One line: what it does (the scenario editor's hover text lists these). */
  readonly summary: string;
  /** Its own keys in its scenario section (zod shape: descriptions become hover text). */
  readonly params: Shape;
  /** Explain a decision detail this algorithm wrote (null for another algorithm's detail). */
  readonly explain?: (detail: AlgorithmDetail) => ExplanationStep[] | null;
  readonly sweep?: readonly SweepKnob[];
  readonly presets?: readonly SweepPresetSpec[];
  /** Its steps as the rules panel lists them, and the step a decision took (./listing.ts). */
  readonly listing?: ListingSpec;
}

export type ParamsOf<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;

/**
 * What a worker snapshot carries of its scheduler: the name, and the state the scheduler's folder
 * declares (`policy_state`, absent for a scheduler that keeps none worth showing).
 */
export interface SchedulerStateOf<Name extends string, State> {
  policy: Name;
  policy_state?: State;
}

/** What a snapshot's `router` carries of its routing: the name and the state its folder declares. */
export interface RoutingStateOf<Name extends string, State> {
  routing: Name;
  state?: State;
}

export interface SchedulerAlgorithm<
  Name extends string = string,
  Shape extends z.ZodRawShape = z.ZodRawShape,
  State = never,
> extends Common<Name, Shape> {
  readonly section: 'scheduler';
  /**
   * The state worth showing of a policy this descriptor created (its folder's type), undefined for
   * another algorithm's policy (the folder narrows with `instanceof` on its own class).
   */
  readonly state?: (policy: LocalPolicy) => State | undefined;
  /** `policy`'s name and state tagged with this algorithm's name; undefined for another's policy. */
  readonly described: (policy: LocalPolicy) => SchedulerStateOf<Name, State> | undefined;
  readonly create: (cfg: LocalPolicyConfig<ParamsOf<Shape>>) => LocalPolicy;
  /** `create` with the parameters read from `given` (defaults for missing keys). */
  readonly build: (cfg: Omit<LocalPolicyConfig, 'params'>, given: object) => LocalPolicy;
  /** The theorem bounding the service gap on one worker, when there is one. */
  readonly bound?: BoundSpec;
  /**
   * Its order as a request prioritizer over a shared queue (Vajra's pull replica-set scheduling);
   * absent: the shared queue keeps arrival order.
   */
  readonly prioritizer?: (params: ParamsOf<Shape>, cost: PrioritizerCost) => Prioritizer;
  /** `prioritizer` with the parameters read from `given`; null when there is none. */
  readonly heldOrder: (cost: PrioritizerCost, given: object) => Prioritizer | null;
  /**
   * How many of `waiting` requests one admission step walks (their cached prefixes matched against
   * the radix cache), for an order that matches every waiting request at each step, as SGLang's
   * cache-aware ones do; absent: the order costs O(log n) or less per step (README, "Scheduler cost
   * per step"). The run estimate charges this work.
   */
  readonly walkedPerStep?: (params: ParamsOf<Shape>, waiting: number) => number;
  /** `walkedPerStep` with the parameters read from `given`; 0 for an order without it. */
  readonly walked: (given: object, waiting: number) => number;
}

export interface RoutingAlgorithm<
  Name extends string = string,
  Shape extends z.ZodRawShape = z.ZodRawShape,
  State = never,
> extends Common<Name, Shape> {
  readonly section: 'router';
  /** The state worth showing of a router this descriptor created, undefined for another's. */
  readonly state?: (policy: RouterPolicy) => State | undefined;
  /** `policy`'s name and state tagged with this algorithm's name; undefined for another's policy. */
  readonly described: (policy: RouterPolicy) => RoutingStateOf<Name, State> | undefined;
  readonly create: (cfg: RouterPolicyConfig<ParamsOf<Shape>>) => RouterPolicy;
  /** `create` with the parameters read from `given` (defaults for missing keys). */
  readonly build: (cfg: Omit<RouterPolicyConfig, 'params'>, given: object) => RouterPolicy;
  /** How the local bounds compose over the workers under this routing; absent: no theorem does. */
  readonly composes?: ComposeSpec;
}

/** A descriptor with its parameter shape checked (identity at run time). */
export function defineScheduler<const Name extends string, Shape extends z.ZodRawShape, State = never>(
  d: Omit<SchedulerAlgorithm<Name, Shape, State>, 'section' | 'build' | 'heldOrder' | 'walked' | 'described'>,
): SchedulerAlgorithm<Name, Shape, State> {
  return {
    section: 'scheduler',
    ...d,
    described: (policy) => {
      if (policy.name !== d.name) return undefined;
      const state = d.state?.(policy);
      return state === undefined ? { policy: d.name } : { policy: d.name, policy_state: state };
    },
    build: (cfg, given) => d.create({ ...cfg, params: paramsOf(d.params, given) }),
    heldOrder: (cost, given) => (d.prioritizer ? d.prioritizer(paramsOf(d.params, given), cost) : null),
    walked: (given, waiting) => (d.walkedPerStep ? d.walkedPerStep(paramsOf(d.params, given), waiting) : 0),
  };
}

export function defineRouting<const Name extends string, Shape extends z.ZodRawShape, State = never>(
  d: Omit<RoutingAlgorithm<Name, Shape, State>, 'section' | 'build' | 'described'>,
): RoutingAlgorithm<Name, Shape, State> {
  return {
    section: 'router',
    ...d,
    described: (policy) => {
      if (policy.name !== d.name) return undefined;
      const state = d.state?.(policy);
      return state === undefined ? { routing: d.name } : { routing: d.name, state };
    },
    build: (cfg, given) => d.create({ ...cfg, params: paramsOf(d.params, given) }),
  };
}

/** The parameters of a descriptor with every default applied, from a (possibly partial) object. */
export function paramsOf<Shape extends z.ZodRawShape>(shape: Shape, given: object = {}): ParamsOf<Shape> {
  return z.object(shape).parse(given);
}
