/**
 * The cluster simulator behind the Session interface: one step is one decision record of the core's
 * `Simulation` (an arrival, a DRR pop, a dispatch, an admission, a completion ...).
 */
import { type DecisionRecord, type SimSnapshot, Simulation } from '../core/sim';
import type { Scenario } from '../scenario';
import type { Session, SessionDecision } from './session';

export class ClusterSession implements Session {
  readonly kind = 'cluster' as const;
  private readonly sim: Simulation;
  /** Decisions handed out by `step` (the sim may have recorded a few more inside the same event). */
  private count = 0;

  constructor(
    scenario: Scenario,
    readonly name: string,
    readonly description: string,
  ) {
    this.sim = new Simulation(scenario);
  }

  step(): SessionDecision | null {
    return this.handOut(this.sim.stepDecision());
  }

  stepBy(t: number): SessionDecision | null {
    return this.handOut(this.sim.stepDecisionBy(t));
  }

  private handOut(rec: DecisionRecord | null): SessionDecision | null {
    if (!rec) return null;
    this.count++;
    const d: SessionDecision = { seq: rec.seq, t: rec.t, kind: rec.kind, summary: rec.summary };
    if (rec.request !== undefined) d.request = rec.request;
    if (rec.client !== undefined) d.client = rec.client;
    if (rec.worker !== undefined) d.worker = rec.worker;
    if (rec.class !== undefined) d.class = rec.class;
    if (rec.detail !== undefined) d.detail = rec.detail;
    return d;
  }

  runUntil(t: number): void {
    this.sim.runUntil(t);
    this.count = this.sim.decisions;
  }

  time(): number {
    return this.sim.now;
  }

  decisions(): number {
    return this.count;
  }

  done(): boolean {
    return this.sim.done();
  }

  totalSteps(): null {
    return null;
  }

  fork(): { session: ClusterSession; bytes: number } {
    const { sim, bytes } = this.sim.fork();
    const session = Object.assign(Object.create(ClusterSession.prototype) as ClusterSession, this, { sim });
    return { session, bytes };
  }

  snapshot(): SimSnapshot {
    // The decision log travels separately in each frame; the snapshot's own copy would double it.
    // (The ring's last arbitration is in `drr.last_pop`.) `decisions` is the playhead (decisions
    // handed out), which replays land on exactly.
    // Only decisions already handed out: the sim may have recorded a few more inside the same event.
    const snap = this.sim.snapshot();
    const latest = snap.latest_algorithm.filter((d) => d.seq < this.count);
    const taken = this.sim.decisions;
    return {
      ...snap,
      recent: [],
      latest_algorithm: latest,
      decisions: this.count,
      ...(taken > this.count ? { state_decisions: taken } : {}),
    };
  }
}
