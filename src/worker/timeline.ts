/**
 * The run's time index: every K decisions, remember (decision index, simulated time). It lets the
 * timeline show a time for any decision index and a time seek estimate how many decisions it has to
 * go. (The state itself is restored from `RestorePoints`, which are far sparser: copies cost memory.)
 *
 * It also keeps the exact time after every decision the run has taken one by one (8 bytes each, up to
 * `EXACT_LIMIT` decisions), so a seek to a place the run has already been can say where it lands:
 * the time of a decision target, the decision of a time target.
 */
export const CHECKPOINT_EVERY = 256;
/** Decisions whose exact time is kept (16 MB at most); later ones have only the sparse index. */
export const EXACT_LIMIT = 2_000_000;

export interface Checkpoint {
  decision: number;
  time: number;
}

export class Checkpoints {
  private readonly list: Checkpoint[] = [{ decision: 0, time: 0 }];
  /** times[d]: simulated time after decision d (NaN where the run skipped over it unseen). */
  private times = new Float64Array(1024);
  /** Largest decision whose slot in `times` is filled. */
  private known = 0;

  constructor(readonly every = CHECKPOINT_EVERY) {}

  /** Call after each decision with the new count and time. */
  note(decision: number, time: number): void {
    this.noteExact(decision, time);
    if (decision % this.every !== 0) return;
    const last = this.list[this.list.length - 1];
    if (decision > last.decision) this.list.push({ decision, time });
  }

  private noteExact(decision: number, time: number): void {
    if (decision <= this.known || decision > EXACT_LIMIT) return;
    if (decision >= this.times.length) {
      const grown = new Float64Array(
        Math.min(EXACT_LIMIT + 1, Math.max(decision + 1, this.times.length * 2)),
      );
      grown.set(this.times);
      this.times = grown;
    }
    // decisions taken without a note in between (a run to a time) have no known time
    this.times.fill(Number.NaN, this.known + 1, decision);
    this.times[decision] = time;
    this.known = decision;
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

  /** The simulated time after `decision` decisions, when the run has been there; null otherwise. */
  exactTimeOf(decision: number): number | null {
    if (!Number.isInteger(decision) || decision < 0 || decision > this.known) return null;
    const t = this.times[decision];
    return Number.isNaN(t) ? null : t;
  }

  /**
   * The first decision after which the simulated time is at or past `time` (where a time seek lands),
   * when the run has been there; null otherwise (also when decisions taken unseen, in a run to a time,
   * lie in the way of the search).
   */
  firstAtOrAfterTime(time: number): number | null {
    // times never decrease: binary search over the known prefix
    if (this.known === 0 || !(this.times[this.known] >= time)) return time <= 0 ? 0 : null;
    let lo = 0;
    let hi = this.known;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const t = this.times[mid];
      if (Number.isNaN(t)) return null;
      if (t >= time) hi = mid;
      else lo = mid + 1;
    }
    return Number.isNaN(this.times[lo]) ? null : lo;
  }

  count(): number {
    return this.list.length;
  }
}
