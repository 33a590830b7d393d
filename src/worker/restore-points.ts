/**
 * Restore points of a run: full copies of the session (`Session.fork`) taken while the run moves
 * forward, so that a seek back starts from the nearest point before the target instead of from the
 * start. The engine is deterministic and a copy goes on exactly as the original would, so a seek
 * lands on the same state as a straight run, whichever point it started from.
 *
 * A copy is not free (tens of milliseconds for a large cluster), so points are spaced by cost: a new
 * one is taken only after the run has spent `1 / overhead` times the last copy's time stepping since
 * the previous one (10 % overhead by default), and never closer than `minGap` decisions. Memory is
 * bounded: past `maxBytes` (or `maxPoints`) every other point is dropped and the spacing doubles, so
 * the points stay spread over the whole run. Points are only taken at the frontier (beyond the
 * newest one); replays behind it reuse what is there.
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
  /** Largest share of stepping time spent on copies (default 0.1). */
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
  private stepMs = 0;
  private lastCopyMs = 0;
  private totalBytes = 0;
  /** Copies that failed (an engine part that cannot be copied): points are off from then on. */
  failed: string | null = null;

  constructor(opts: RestorePointOptions = {}) {
    this.clock = opts.clock ?? (() => performance.now());
    this.overhead = opts.overhead ?? 0.1;
    this.minGap = opts.minGap ?? 256;
    this.maxBytes = opts.maxBytes ?? 192 * 1024 * 1024;
    this.maxPoints = opts.maxPoints ?? 48;
  }

  /** Wall time (ms) spent stepping the run, counted towards the next point. */
  addStepTime(ms: number): void {
    this.stepMs += ms;
  }

  private newest(): number {
    return this.list.length > 0 ? this.list[this.list.length - 1].decision : 0;
  }

  /** Whether a point should be taken now that the run is at `decision`. */
  due(decision: number): boolean {
    if (this.failed !== null) return false;
    return decision >= this.newest() + this.minGap && this.stepMs * this.overhead >= this.lastCopyMs;
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
    this.lastCopyMs = this.clock() - start;
    this.stepMs = 0;
    this.list.push({
      decision: session.decisions(),
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
    this.stepMs = 0;
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
