/** The record of one scheduling decision: what was chosen, among what, and why. */

export type DecisionKind =
  | 'arrive'
  | 'enqueue'
  | 'reject'
  | 'drr-pop'
  | 'dispatch'
  | 'admit'
  | 'preempt'
  | 'step'
  | 'complete';

export interface DecisionRecord {
  /** 0, 1, 2, ... over the run. */
  seq: number;
  /** Simulated seconds. */
  t: number;
  kind: DecisionKind;
  /** One readable line. */
  summary: string;
  request?: string;
  client?: string;
  worker?: number;
  /** Router policy class, when the policy-class queue is on. */
  class?: string;
  /** Algorithm-specific facts (JSON-serialisable). */
  detail?: Record<string, unknown>;
}
