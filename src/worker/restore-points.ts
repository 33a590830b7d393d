/**
 * Restore points of a run: full copies of the session (`Session.fork`) taken while the run moves
 * forward, so that a seek back starts from the nearest point before the target instead of from the
 * start. The engine is deterministic and a copy goes on exactly as the original would, so a seek
 * lands on the same state as a straight run, whichever point it started from.
 *
 * A copy is not free (about 100 ms for the 8-worker, 100k-request scenario), so points are spaced by
 * cost: a new one is taken only when at least `1 / overhead` times the last copy's time has passed
 * since the previous one ended, so copying takes at most a tenth of the worker's time by default (at
 * full speed that is a tenth of the stepping; at slower speeds the worker idles between frames and
 * points come closer), and never closer than `minGap` decisions. When the worker is idle (the
 * viewer paused), the API takes a point where it stands if the spacing allows (`dueIdle`). Memory is
 * bounded: past `maxBytes` (or `maxPoints`) every other point is dropped and the spacing doubles, so
 * the points stay spread over the whole run. Replays after a seek back take points too, between the
 * existing ones (the same spacing rules apply), so scrubbing to and fro in one region gets faster.
 */
import type { Session, SessionDecision } from './session';

export interface RestorePoint {
  /** The playhead (decisions handed out) at the point. */
  decision: number;
  /** Simulated time at the point. */
  time: number;
  /** The pristine copy; restore from a fork of it, never step it. */
  session: Session;
  /** The decision log's tail at the point (what the log shows after a restore). */
  log: readonly SessionDecision[];
  bytes: number;
}

export interface RestorePointOptions {
  /** Wall clock in ms (injected for tests). */
  clock?: () => number;
  /** Largest share of the worker's busy wall time spent on copies (default 0.1). */
  overhead?: number;
  /** Fewest decisions between two points (default 256; doubles whenever the points are thinned). */
  minGap?: number;
  /** Memory for all points together (default 192 MB). */
  maxBytes?: number;
  /** Most points kept (default 48). */
  maxPoints?: number;
}

/** Where a seek wants to land: a playhead, or the first decision at or after a simulated time. */
export type RestoreTarget = { decision: number } | { time: number };

export class RestorePoints {
  private readonly list: RestorePoint[] = [];
  private readonly clock: () => number;
  private readonly overhead: number;
  private readonly maxBytes: number;
  private readonly maxPoints: number;
  private minGap: number;
  /** When the last copy ended, and what it cost (wall ms). */
  private lastEnd: number;
  private lastCopyMs = 0;
  /** All copies' wall time (ms), for the benchmark. */
  copyMsTotal = 0;
  private totalBytes = 0;
  /** Copies that failed (an engine part that cannot be copied): points are off from then on. */
  failed: string | null = null;

  constructor(opts: RestorePointOptions = {}) {
    this.clock = opts.clock ?? (() => performance.now());
    this.overhead = opts.overhead ?? 0.1;
    this.minGap = opts.minGap ?? 256;
    this.maxBytes = opts.maxBytes ?? 192 * 1024 * 1024;
    this.maxPoints = opts.maxPoints ?? 48;
    this.lastEnd = this.clock();
  }

  /** Index of the first point after `decision` (the list's length when none is). */
  private after(decision: number): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.list[mid].decision <= decision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Whether a point should be taken now that the run is at `decision`. */
  due(decision: number): boolean {
    if ((this.clock() - this.lastEnd) * this.overhead < this.lastCopyMs) return false;
    return this.dueIdle(decision);
  }

  /**
   * Whether a point at `decision` would keep the spacing, whatever a copy costs: for idle moments,
   * when the worker has nothing else to do and a copy delays nobody.
   */
  dueIdle(decision: number): boolean {
    if (this.failed !== null) return false;
    const i = this.after(decision);
    const below = i > 0 ? this.list[i - 1].decision : 0;
    const above = i < this.list.length ? this.list[i].decision : Number.POSITIVE_INFINITY;
    return decision - below >= this.minGap && above - decision >= this.minGap;
  }

  /** Take a point of `session` (call when `due`). */
  take(session: Session, log: readonly SessionDecision[]): void {
    const start = this.clock();
    let copy: { session: Session; bytes: number };
    try {
      copy = session.fork();
    } catch (err) {
      this.failed = err instanceof Error ? err.message : String(err);
      return;
    }
    this.lastEnd = this.clock();
    this.lastCopyMs = this.lastEnd - start;
    this.copyMsTotal += this.lastCopyMs;
    const decision = session.decisions();
    this.list.splice(this.after(decision), 0, {
      decision,
      time: session.time(),
      session: copy.session,
      log: log.slice(),
      bytes: copy.bytes,
    });
    this.totalBytes += copy.bytes;
    while (this.list.length > 1 && (this.totalBytes > this.maxBytes || this.list.length > this.maxPoints))
      this.thin();
  }

  /** Drop every other point (the newest stays) and double the spacing. */
  private thin(): void {
    const keep: RestorePoint[] = [];
    const last = this.list.length - 1;
    this.list.forEach((p, i) => {
      if (i % 2 === 1 || i === last) keep.push(p);
      else this.totalBytes -= p.bytes;
    });
    this.list.length = 0;
    this.list.push(...keep);
    this.minGap *= 2;
  }

  /**
   * The newest point a run may restart from to reach `target` exactly as a straight run does: at or
   * before the playhead, or strictly before the time (a point at the time itself may already be
   * past the first decision there). Null when none qualifies (start from the beginning).
   */
  best(target: RestoreTarget): RestorePoint | null {
    let found: RestorePoint | null = null;
    for (const p of this.list) {
      const ok = 'decision' in target ? p.decision <= target.decision : p.time < target.time;
      if (ok) found = p;
      else break;
    }
    return found;
  }

  /** A fresh copy of a point to run on (the point itself stays pristine). */
  restore(p: RestorePoint): Session {
    return p.session.fork().session;
  }

  count(): number {
    return this.list.length;
  }

  bytes(): number {
    return this.totalBytes;
  }

  /** Points' playheads, oldest first (for tests and the status line). */
  decisions(): number[] {
    return this.list.map((p) => p.decision);
  }
}
