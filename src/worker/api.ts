/**
 * The worker's API, exposed with comlink. It owns the running session, a bounded log of recent
 * decisions, the run's time index (decision ↔ time) and its restore points (copies of the session
 * taken as the run moves on). The UI pulls one packed frame per animation frame with `advance`
 * (transferred, never a message per event). A seek restarts from the nearest restore point before
 * its target (from the start only when there is none) and replays deterministically from there, in
 * slices so the UI can show progress.
 */
import { transfer } from 'comlink';
import type { Problem } from '../format/yaml';
import { FRAME_MAX_BYTES, packFrame } from './frame';
import { loadSession } from './load';
import type { Session, SessionDecision, SessionKind, SessionSnapshot } from './session';
import { type RestorePointOptions, RestorePoints, type RestoreTarget } from './restore-points';
import { Checkpoints } from './timeline';
import type { TraceReadOptions } from '../format/trace';
import {
  cancelTraceRead,
  droppedTrace,
  holdsDroppedFiles,
  readTraceBlob,
  rereadFor,
  type TraceLoadResult,
} from './trace-upload';
import type { TraceTable } from '../core/trace';
import { traceReadingsOf } from '../scenario';

/** Decisions kept for the log (and sent after a seek). */
export const LOG_LIMIT = 200;

/** The worker counts as idle after this long without a stepping call (ms). */
export const IDLE_MS = 250;

export type LoadResult =
  | {
      ok: true;
      kind: SessionKind;
      name: string;
      description: string;
      totalSteps: number | null;
      /** The text names its Dynamo release (router.dynamo_release / a script's release:). */
      releaseSet: boolean;
    }
  | { ok: false; problems: Problem[]; source: 'scenario' | 'policy' };

export interface AdvanceBudget {
  /** Most decisions to take. */
  decisions: number;
  /** Stop early after this much wall time in the worker (keeps frames flowing at high speed). */
  maxWallMs?: number;
  /**
   * Send the (large) snapshot at most this often; frames in between carry the header and the new
   * decisions only. The last frame of a run always has it.
   */
  snapshotEveryMs?: number;
}

/** Where a seek should land: a decision count (the playhead) or a simulated time. */
export type SeekTarget = { decision: number } | { time: number };

export interface SeekSlice {
  frame: ArrayBuffer;
  /** Decisions replayed so far and the count the seek is heading to (time seeks: an estimate). */
  at: number;
  target: number;
  /** The decision this seek replays from (a restore point, 0 for the start, or where it already was). */
  from: number;
  finished: boolean;
  /**
   * Where the seek lands, when the run has been there before (a seek back, or forward over ground
   * already run): the decision it stops after and the simulated time then; null where not known yet
   * (a link's playhead on a fresh page). For a decision target `landing.decision` is that target.
   */
  landing: { decision: number | null; time: number | null };
}

const now = () => performance.now();

export class FairgroundApi {
  private session: Session | null = null;
  private make: (() => Session) | null = null;
  private log: SessionDecision[] = [];
  private checkpoints = new Checkpoints();
  private points: RestorePoints;
  private reach = 0;
  private seeking: SeekTarget | null = null;
  private seekFrom = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private sinceFrame: SessionDecision[] = [];
  private replaceLog = false;
  /** performance.now() of the last frame that carried a snapshot; null: none since the load. */
  private lastSnapshotAt: number | null = null;
  /** In a background tab: no restore points are taken. */
  private background = false;
  /** Largest frame packed so far (bytes), for the benchmark. */
  maxFrameBytes = 0;
  /** The playhead the last backward seek replayed from (0: the start; -1: no seek went back yet). */
  lastSeekFrom = -1;

  /** `restorePoints` tunes when restore points are taken (tests use a small spacing). */
  constructor(private readonly opts: { restorePoints?: RestorePointOptions } = {}) {
    this.points = new RestorePoints(opts.restorePoints);
  }

  /**
   * Read a trace file the user dropped or picked (a File, cloned to the worker, never uploaded):
   * streamed through the parser, with progress; a scenario whose `trace.file` is `name` replays it.
   */
  async loadTrace(
    file: Blob,
    name: string,
    opts: TraceReadOptions = {},
    onProgress?: (bytes: number, total: number) => void,
  ): Promise<TraceLoadResult> {
    return readTraceBlob(file, name, opts, onProgress);
  }

  /**
   * The table of the dropped trace named `name` when this worker holds it (null otherwise: none
   * dropped, another name, or a bundled trace), for sweep and export workers to replay the same file.
   */
  async droppedTrace(name: string): Promise<TraceTable | null> {
    return droppedTrace(name);
  }

  /** Stop a trace read in progress. */
  async cancelTrace(): Promise<void> {
    cancelTraceRead();
  }

  async load(scenarioYaml: string, policyYaml?: string): Promise<LoadResult> {
    let outcome: ReturnType<typeof loadSession>;
    try {
      // a dropped trace the scenario reads otherwise than it was read (time_unit, columns, …) is read
      // again its way first, so the page replays what the command line would
      // (the scenario's trace sections are read only when a dropped file is held)
      if (holdsDroppedFiles()) await rereadFor(traceReadingsOf(scenarioYaml));
      outcome = loadSession(scenarioYaml, policyYaml);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, source: 'scenario', problems: [{ line: 1, col: 1, message, path: [] }] };
    }
    if (!outcome.ok) return outcome;
    this.make = outcome.make;
    this.restart(outcome.session);
    const s = outcome.session;
    return {
      ok: true,
      kind: s.kind,
      name: s.name,
      description: s.description,
      totalSteps: s.totalSteps(),
      releaseSet: outcome.releaseSet,
    };
  }

  private restart(session: Session): void {
    this.session = session;
    this.log = [];
    this.sinceFrame = [];
    this.checkpoints = new Checkpoints();
    this.points = new RestorePoints(this.opts.restorePoints);
    this.reach = 0;
    this.seeking = null;
    this.replaceLog = true;
    this.lastSnapshotAt = null;
  }

  async reset(): Promise<ArrayBuffer> {
    this.seeking = null;
    if (this.make) this.rewind();
    return this.frame();
  }

  /** Back to decision 0 with the same inputs (keeps the checkpoints and the reach). */
  private rewind(): void {
    if (!this.make) return;
    this.session = this.make();
    this.log = [];
    this.sinceFrame = [];
    this.replaceLog = true;
  }

  /**
   * Go back to where a replay towards `target` should start: the newest restore point before it, or
   * decision 0. Stays put when the current state is already at or past that point and not beyond
   * the target (going forward is then cheaper).
   */
  private rewindFor(target: RestoreTarget): void {
    const s = this.need();
    const point = this.points.best(target);
    const ahead = 'decision' in target ? s.decisions() > target.decision : s.time() >= target.time;
    if (!ahead && (point === null || s.decisions() >= point.decision)) return;
    if (point === null) {
      this.lastSeekFrom = 0;
      this.rewind();
      return;
    }
    let restored: Session;
    try {
      restored = this.points.restore(point);
    } catch {
      // a copy that cannot be copied again: replay from the start instead (slower, same result)
      this.lastSeekFrom = 0;
      this.rewind();
      return;
    }
    this.lastSeekFrom = point.decision;
    this.session = restored;
    this.log = point.log.slice();
    this.sinceFrame = [];
    this.replaceLog = true;
  }

  /**
   * Take a restore point when one is due; and, whatever the state, once the worker has been idle for
   * IDLE_MS (paused, or between slow steps), take one there if the spacing allows: a copy then
   * delays nothing, and the place a viewer paused at is where scrubbing usually starts.
   */
  private maybePoint(s: Session): void {
    if (this.background) {
      if (this.idleTimer !== null) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      return;
    }
    if (this.points.due(s.decisions())) this.points.take(s, this.log.slice(-LOG_LIMIT));
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    const timer = setTimeout(() => {
      this.idleTimer = null;
      const cur = this.session;
      if (cur === s && this.seeking === null && !this.background && this.points.dueIdle(cur.decisions()))
        this.points.take(cur, this.log.slice(-LOG_LIMIT));
    }, IDLE_MS);
    // (in Node, tests and the CLI must not wait for it)
    (timer as { unref?: () => void }).unref?.();
    this.idleTimer = timer;
  }

  /**
   * The page is in a background tab (document.hidden): take no restore points until it is back, so
   * the memory of many open tabs goes to the ones being looked at. Points already kept stay.
   */
  async setBackground(hidden: boolean): Promise<void> {
    this.background = hidden;
    if (hidden && this.idleTimer !== null) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
  }

  /** Restore points kept now, for tests and the benchmark. */
  async restorePoints(): Promise<{
    decisions: number[];
    bytes: number;
    copyMs: number;
    failed: string | null;
  }> {
    const p = this.points;
    return { decisions: p.decisions(), bytes: p.bytes(), copyMs: p.copyMsTotal, failed: p.failed };
  }

  private need(): Session {
    if (!this.session) throw new Error('no scenario loaded');
    return this.session;
  }

  /**
   * One decision forward (with `by`: only one due by that simulated time), into the log and the time
   * index; false when there is none.
   */
  private one(s: Session, by?: number): boolean {
    const d = by === undefined ? s.step() : s.stepBy(by);
    if (!d) return false;
    this.log.push(d);
    if (this.log.length > LOG_LIMIT * 2) this.log = this.log.slice(-LOG_LIMIT);
    this.sinceFrame.push(d);
    if (this.sinceFrame.length > LOG_LIMIT * 2) this.sinceFrame = this.sinceFrame.slice(-LOG_LIMIT);
    const n = s.decisions();
    this.checkpoints.note(n, s.time());
    if (n > this.reach) this.reach = n;
    return true;
  }

  /** The current state as one packed, transferable frame (decisions since the previous frame). */
  private pack(withSnapshot = true): ArrayBuffer {
    const s = this.need();
    if (withSnapshot) this.lastSnapshotAt = now();
    const decisions = this.replaceLog ? this.log.slice(-LOG_LIMIT) : this.sinceFrame.slice(-LOG_LIMIT);
    const total = s.totalSteps();
    const buf = packFrame(
      {
        sim_time_s: s.time(),
        decision_count: s.decisions(),
        done: s.done(),
        total_steps: total,
        replace_log: this.replaceLog,
        reach: Math.max(this.reach, total ?? 0),
      },
      withSnapshot ? s.snapshot() : null,
      decisions,
      FRAME_MAX_BYTES,
    );
    this.sinceFrame = [];
    this.replaceLog = false;
    if (buf.byteLength > this.maxFrameBytes) this.maxFrameBytes = buf.byteLength;
    return buf;
  }

  private frameOut(withSnapshot = true): ArrayBuffer {
    const buf = this.pack(withSnapshot);
    return transfer(buf, [buf]);
  }

  /** The current frame, with the whole recent log (use after a load). */
  async frame(): Promise<ArrayBuffer> {
    this.replaceLog = true;
    return this.frameOut();
  }

  async step(n = 1): Promise<ArrayBuffer> {
    return this.advance({ decisions: n });
  }

  async advance(budget: AdvanceBudget): Promise<ArrayBuffer> {
    const s = this.need();
    // a seek left unfinished (stopped, or Play pressed) is over: asking for its target again replays anew
    this.seeking = null;
    const start = now();
    for (let i = 0; i < budget.decisions; i++) {
      if (!this.one(s)) break;
      if (budget.maxWallMs !== undefined && (i & 31) === 31 && now() - start > budget.maxWallMs) break;
    }
    this.maybePoint(s);
    const every = budget.snapshotEveryMs;
    const last = this.lastSnapshotAt;
    const withSnapshot = every === undefined || s.done() || last === null || now() - last >= every;
    return this.frameOut(withSnapshot);
  }

  async runUntil(simTimeS: number): Promise<ArrayBuffer> {
    this.seeking = null;
    if (simTimeS < this.need().time()) this.rewindFor({ time: simTimeS });
    const cur = this.need();
    let k = 0;
    while (cur.time() < simTimeS && !cur.done()) {
      if (!this.one(cur)) break;
      // restore points on the way, as Play takes them between its slices: a long jump (a tour step's
      // moment) would otherwise leave one point at its end, and a seek back would replay from 0
      if ((++k & 63) === 0 && !this.background && this.points.due(cur.decisions()))
        this.points.take(cur, this.log.slice(-LOG_LIMIT));
    }
    // Then what is due by the target time, one decision at a time (the last step's event may have
    // recorded more than it handed out, and more may be due exactly then): each goes into the log and
    // the time index, as the core's own runUntil, which would take them unseen, is left nothing to
    // do but set the clock.
    while (this.one(cur, simTimeS)) {
      /* one decision each */
    }
    cur.runUntil(simTimeS);
    this.maybePoint(cur);
    this.reach = Math.max(this.reach, cur.decisions());
    this.replaceLog = true;
    return this.frameOut();
  }

  /**
   * One slice of a seek: replays (going back: from the nearest restore point before the target) for
   * at most `maxWallMs`, then returns a frame and the progress. Call again with the same target until
   * `finished`. A time target lands on the first decision at or after that time, as a straight run
   * stepping to it would. With `snapshotEveryMs`, slices before the last carry the snapshot at most
   * that often (light frames in between, as `advance` sends while playing).
   */
  async seek(target: SeekTarget, maxWallMs = 40, snapshotEveryMs?: number): Promise<SeekSlice> {
    const fresh = !this.seeking || JSON.stringify(this.seeking) !== JSON.stringify(target);
    if (fresh) {
      this.seeking = target;
      this.rewindFor(
        'decision' in target ? { decision: Math.max(0, Math.floor(target.decision)) } : { time: target.time },
      );
      this.seekFrom = this.need().decisions();
    }
    const s = this.need();
    const start = now();
    let finished = false;
    let goal: number;
    if ('decision' in target) {
      goal = Math.max(0, Math.floor(target.decision));
      while (s.decisions() < goal) {
        if (!this.one(s)) break;
        if ((s.decisions() & 63) === 0 && now() - start > maxWallMs) break;
      }
      finished = s.decisions() >= goal || s.done();
    } else {
      const exact = this.checkpoints.firstAtOrAfterTime(target.time);
      goal =
        exact !== null && exact >= s.decisions()
          ? exact
          : Math.max(s.decisions(), this.checkpoints.atOrBeforeTime(target.time).decision);
      while (s.time() < target.time) {
        if (!this.one(s)) break;
        if ((s.decisions() & 63) === 0 && now() - start > maxWallMs) break;
      }
      finished = s.time() >= target.time || s.done();
    }
    this.maybePoint(s);
    if (finished) this.seeking = null;
    this.replaceLog = true;
    // slices on the way may leave the (large) snapshot out, as Play's frames do; the last one has it
    const last = this.lastSnapshotAt;
    const light =
      !finished && snapshotEveryMs !== undefined && last !== null && now() - last < snapshotEveryMs;
    const frame = this.frameOut(!light);
    const landing =
      'decision' in target
        ? { decision: goal, time: this.checkpoints.exactTimeOf(goal) }
        : this.landingAtTime(target.time);
    return transfer({ frame, at: s.decisions(), target: goal, from: this.seekFrom, finished, landing }, [
      frame,
    ]);
  }

  private landingAtTime(time: number): SeekSlice['landing'] {
    const decision = this.checkpoints.firstAtOrAfterTime(time);
    return { decision, time: decision === null ? null : this.checkpoints.exactTimeOf(decision) };
  }

  /**
   * Follow another run's clock (compare mode's run B): process everything due up to `simTimeS`
   * without stepping past it, so both runs show the same moment; when the target is behind, replays
   * from the nearest restore point before it. The decision log is not kept here (B shows no log).
   */
  async syncTo(simTimeS: number): Promise<ArrayBuffer> {
    this.seeking = null;
    if (simTimeS < this.need().time()) this.rewindFor({ time: simTimeS });
    const s = this.need();
    s.runUntil(simTimeS);
    this.maybePoint(s);
    this.reach = Math.max(this.reach, s.decisions());
    return this.frameOut();
  }

  async snapshot(): Promise<SessionSnapshot> {
    return this.need().snapshot();
  }

  /** Simulated time of a decision index from the checkpoints (for the timeline's label). */
  async timeOf(decision: number): Promise<number> {
    return this.checkpoints.timeOf(decision);
  }

  async stats(): Promise<{ maxFrameBytes: number; lastSeekFrom: number }> {
    return { maxFrameBytes: this.maxFrameBytes, lastSeekFrom: this.lastSeekFrom };
  }
}
