/**
 * The run's time index: every K decisions, remember (decision index, simulated time). It lets the
 * timeline show a time for any decision index and a time seek estimate how many decisions it has to
 * go. (The state itself is restored from `RestorePoints`, which are far sparser: copies cost memory.)
 */
export const CHECKPOINT_EVERY = 256;

export interface Checkpoint {
  decision: number;
  time: number;
}

export class Checkpoints {
  private readonly list: Checkpoint[] = [{ decision: 0, time: 0 }];

  constructor(readonly every = CHECKPOINT_EVERY) {}

  /** Call after each decision with the new count and time. */
  note(decision: number, time: number): void {
    if (decision % this.every !== 0) return;
    const last = this.list[this.list.length - 1];
    if (decision > last.decision) this.list.push({ decision, time });
  }

  /** The last checkpoint whose time is at or before `time` (decision 0 at worst). */
  atOrBeforeTime(time: number): Checkpoint {
    let lo = 0;
    let hi = this.list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.list[mid].time <= time) lo = mid;
      else hi = mid - 1;
    }
    return this.list[lo];
  }

  /** Approximate simulated time of a decision index (exact at checkpoints). */
  timeOf(decision: number): number {
    let best = this.list[0];
    for (const c of this.list) if (c.decision <= decision) best = c;
    return best.time;
  }

  count(): number {
    return this.list.length;
  }
}
