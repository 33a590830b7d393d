/**
 * What run B is asked to take after run A's end and has not been sent to its worker yet. Two kinds
 * are kept apart, because they mean different things:
 * - Step's decisions: an exact count (one decision per press), taken in one call as A's Step is;
 * - Play's slice: a budget that always stops after about `maxWallMs` of the worker's time, so the
 *   page gets a frame back promptly and a Pause takes effect at once, at any speed.
 * Merging the two into one budget without a wall limit (as before) let a Step pressed while a slice
 * of Play was waiting run B to its end in one call, past the Pause that Step implies.
 */
import type { AdvanceBudget } from '../../worker/api';

export class BAhead {
  private steps = 0;
  private slice: { decisions: number; maxWallMs: number } | null = null;

  /** Step: `decisions` more, exactly. */
  addSteps(decisions: number): void {
    this.steps += decisions;
  }

  /** One frame of Play (or of a link's replay): up to `decisions`, within about `maxWallMs`. */
  addSlice(decisions: number, maxWallMs: number): void {
    const prev = this.slice;
    this.slice = {
      decisions: (prev?.decisions ?? 0) + decisions,
      maxWallMs: prev ? Math.min(prev.maxWallMs, maxWallMs) : maxWallMs,
    };
  }

  /** Pause: Play's slice not yet sent is dropped (Step's decisions stay: Step asked for them). */
  dropSlice(): void {
    this.slice = null;
  }

  clear(): void {
    this.steps = 0;
    this.slice = null;
  }

  get empty(): boolean {
    return this.steps === 0 && this.slice === null;
  }

  /**
   * The next worker call's budget, taken off the queue: Step's decisions first (they were asked
   * before the slice that follows them), then Play's slice. Null when nothing waits.
   */
  take(snapshotEveryMs: number): AdvanceBudget | null {
    if (this.steps > 0) {
      const decisions = this.steps;
      this.steps = 0;
      return { decisions };
    }
    const slice = this.slice;
    if (slice === null) return null;
    this.slice = null;
    return { decisions: slice.decisions, maxWallMs: slice.maxWallMs, snapshotEveryMs };
  }
}
