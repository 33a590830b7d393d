/**
 * What the playground draws, one type per kind of session: a discriminated union on `kind`, owned
 * here and carried unchanged by the worker API (frames), the UI's store, its hooks and its views.
 * Field names follow one convention, the CLI's JSON and the spec's: snake_case, at every level (the
 * workers, the radix summary, the DRR classes, queued requests and pop records with their class
 * visits, the guarantee, and the decision records of `recent` with every algorithm's `detail`). Two
 * outputs outside the playground keep the names they were first written with, mapped back where they
 * are written: the CLI's `--trace` lines (core/export/trace-v1.ts) and the run export,
 * `fairground-run` version 1 (core/export/snapshot-v1.ts).
 */
import type { ArbitrationSession } from './drr/script-runner';
import type { DrrStateSnapshot } from './drr/queued-view';
import type { ScriptOutputLine } from './drr/types';
import type { DecisionKind } from './sim/decision';
import type { ClientSnapshot, SimSnapshot } from './sim/snapshot';

export type { SimSnapshot } from './sim/snapshot';

/** The DRR sandbox (an arbitration script run one enqueue or pop at a time). */
export interface SandboxSnapshot {
  kind: 'arbitration';
  scenario: string;
  /** Steps taken since the load: the sandbox's clock is one step per simulated second. */
  sim_time_s: number;
  /** Steps taken since the load (after any preloaded enqueues). */
  decisions: number;
  /** The sandbox has no clients; the key is there because the test hook promises it. */
  clients: Record<string, ClientSnapshot>;
  drr: DrrStateSnapshot;
  /** Steps of the whole script, not counting the preloaded enqueues. */
  total_steps: number;
  /** Enqueues run at load (`preload: true`). */
  preloaded: number;
  /** Classes blocked in the most recent pop. */
  blocked_now: string[];
  /** The most recent step's output line (as the CLI's `arbitrate` prints it). */
  last_line: ScriptOutputLine | null;
  /** The script's `workers`. */
  worker_count: number;
  /** What the pops took so far (the Compare view's dispatch rows); absent from the core's own snapshot. */
  dispatch?: SandboxDispatch;
}

/** The requests a sandbox's pops took: how many per class, and the first ones in order. */
export interface SandboxDispatch {
  /** Requests taken per class, by class name (classes that took none are absent). */
  taken: Record<string, number>;
  /** Pops that took a request. */
  pops: number;
  /** The first SANDBOX_DISPATCH_KEPT requests taken, in order. */
  first: { id: string; class: string }[];
}

/** How many of a sandbox's first taken requests its snapshot lists. */
export const SANDBOX_DISPATCH_KEPT = 200;

export type SessionSnapshot = SimSnapshot | SandboxSnapshot;
export type SessionKind = SessionSnapshot['kind'];

/** What a DRR sandbox step does: one enqueue or one pop (the arbitration script's `op`). */
export type SandboxDecisionKind = ScriptOutputLine['op'];
/**
 * The kind of a decision-log line: a cluster record's kind (core/sim/decision.ts) or a sandbox
 * step's op. Every kind the engine or the sandbox emits, and no other.
 */
export type SessionDecisionKind = DecisionKind | SandboxDecisionKind;

/**
 * The sandbox's snapshot after `steps` playground steps (`preloaded` enqueues ran at load);
 * `lastPopStep` is the step whose pop made the session's last record.
 */
export function sandboxSnapshot(
  session: ArbitrationSession,
  opts: { name: string; steps: number; preloaded: number; workers: number; lastPopStep: number },
): SandboxSnapshot {
  const s = session.snapshot();
  const { steps, preloaded } = opts;
  return {
    kind: 'arbitration',
    scenario: opts.name,
    sim_time_s: steps,
    decisions: steps,
    clients: {},
    drr: {
      cursor: s.cursor,
      carry: s.carry,
      classes: s.classes,
      variant: s.variant,
      profile: s.profile,
      queues: s.queues,
      last_pop: s.last_record ? { t: opts.lastPopStep, record: s.last_record } : null,
      release: session.release,
    },
    total_steps: s.total_steps - preloaded,
    preloaded,
    blocked_now: s.blocked_now,
    last_line: s.log.length ? s.log[s.log.length - 1] : null,
    worker_count: opts.workers,
  };
}
