/**
 * A session is whatever the playground is currently running: the cluster simulator or the DRR
 * sandbox (an arbitration script). The worker API drives any of them the same way: one
 * `step()` is one scheduling decision (in the sandbox: one enqueue or one pop).
 */
import type { DrrPopRecord } from '../core/drr/types';
import type { DecisionDetail } from '../core/sim/decision';
import type { SessionDecisionKind, SessionKind, SessionSnapshot } from '../core/snapshot';
import type { Problem } from '../format/yaml';

export type {
  SandboxSnapshot,
  SessionDecisionKind,
  SessionKind,
  SessionSnapshot,
  SimSnapshot,
} from '../core/snapshot';

/** One decision as the decision log shows it; the optional fields link it to what it touched. */
export interface SessionDecision {
  /** 0-based index of the decision since the load. */
  seq: number;
  t: number;
  kind: SessionDecisionKind;
  summary: string;
  request?: string;
  client?: string;
  worker?: number;
  class?: string;
  /** The DRR sandbox's pop: the arbitration's full record (the Explanation panel's source). */
  drr?: DrrPopRecord;
  /** The cluster engine's typed detail (see core/sim/decision.ts). */
  detail?: DecisionDetail;
}

export interface Session {
  readonly kind: SessionKind;
  readonly name: string;
  readonly description: string;
  /** One scheduling decision forward; null when the run is over. */
  step(): SessionDecision | null;
  /**
   * The next decision due by simulated time `t` (one the last step's event recorded and none has
   * taken yet included); null when there is none by then. Nothing due after `t` is processed.
   */
  stepBy(t: number): SessionDecision | null;
  /** Advance until simulated time reaches `simTimeS` (or the run ends). */
  runUntil(simTimeS: number): void;
  time(): number;
  /** Decisions taken since the load. */
  decisions(): number;
  done(): boolean;
  /** Total steps when known up front (an arbitration script), else null. */
  totalSteps(): number | null;
  snapshot(): SessionSnapshot;
  /**
   * An independent copy at this decision (a restore point): stepping the copy or the original never
   * affects the other, and the copy goes on exactly as the original would. `bytes` estimates its size.
   */
  fork(): { session: Session; bytes: number };
}

export type LoadOutcome =
  | {
      ok: true;
      session: Session;
      make: () => Session;
      /**
       * Whether the text names the Dynamo release its queue models (a scenario's
       * `router.dynamo_release`, a script's `release`), or leaves it to the default.
       */
      releaseSet: boolean;
    }
  | { ok: false; problems: Problem[]; source: 'scenario' | 'policy' };
