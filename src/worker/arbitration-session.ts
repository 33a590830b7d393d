/**
 * The DRR sandbox behind the Session interface: an arbitration script run one op at a time on the
 * core's `ArbitrationSession` (one step = one enqueue or one pop). Simulated time is the step count,
 * so the timeline and `runUntil` work the same way as for the cluster.
 */
import { deepClone } from '../core/clone';
import { type ArbitrationSession, playgroundSession, type StepResult, totalSteps } from '../core/drr';
import type { ArbitrationScript } from '../core/drr/types';
import { SANDBOX_DISPATCH_KEPT, type SandboxSnapshot, sandboxSnapshot } from '../core/snapshot';
import type { Session, SessionDecision } from './session';

/** A readable line for one sandbox step. */
export function describeStep(s: StepResult): string {
  const line = s.line;
  if (line.op === 'enqueue') {
    return line.accepted
      ? `enqueue ${line.id} → class ${line.class}`
      : `enqueue ${line.id} → class ${line.class} rejected (${line.reason}: ${line.current}/${line.limit})`;
  }
  const why = s.record?.summary ?? '';
  const deficits = line.deficits.map((d) => `${d.class}=${d.deficit}`).join(' ');
  if (line.id === null) return `pop → nothing (${why}) · deficits ${deficits}`;
  return `pop ${line.id} from ${line.class} (cost ${line.cost}) · deficits ${deficits}${why ? ` · ${why}` : ''}`;
}

export class SandboxSession implements Session {
  readonly kind = 'arbitration' as const;
  private readonly core: ArbitrationSession;
  private count = 0;
  /** The step (1-based, as a decision's `t`) of the most recent pop that made a record. */
  private lastPopStep = 0;
  /** Enqueue ops run at load (`preload: true`): before step 1, so not counted as steps. */
  private readonly preloaded: number;
  /** What the pops took: per class, and the first SANDBOX_DISPATCH_KEPT in order (Compare shows it). */
  private taken: Record<string, number> = {};
  private pops = 0;
  private first: { id: string; class: string }[] = [];

  constructor(
    private readonly script: ArbitrationScript,
    readonly name: string,
    readonly description: string,
  ) {
    ({ session: this.core, preloaded: this.preloaded } = playgroundSession(script));
  }

  step(): SessionDecision | null {
    const s = this.core.step();
    if (!s) return null;
    const seq = this.count++;
    const line = s.line;
    const d: SessionDecision = { seq, t: seq + 1, kind: line.op, summary: describeStep(s) };
    if (line.id !== null) d.request = line.id;
    if (line.class !== null) d.class = line.class;
    const cls = line.class;
    if (line.op === 'pop' && line.id !== null && typeof cls === 'string') {
      this.taken[cls] = (this.taken[cls] ?? 0) + 1;
      this.pops++;
      if (this.first.length < SANDBOX_DISPATCH_KEPT) this.first.push({ id: line.id, class: cls });
    }
    if (s.record) {
      d.drr = s.record;
      this.lastPopStep = d.t;
    }
    return d;
  }

  stepBy(t: number): SessionDecision | null {
    return this.count < t ? this.step() : null;
  }

  runUntil(t: number): void {
    while (this.count < t && this.step()) {
      /* one op per simulated second */
    }
  }

  time(): number {
    return this.count;
  }

  decisions(): number {
    return this.count;
  }

  done(): boolean {
    return this.core.done();
  }

  totalSteps(): number {
    return totalSteps(this.script.ops) - this.preloaded;
  }

  fork(): { session: SandboxSession; bytes: number } {
    const { value: core, bytes } = deepClone(this.core, { share: new Set<object>([this.script]) });
    // (the dispatch record is copied: a fork steps on its own)
    const session = Object.assign(Object.create(SandboxSession.prototype) as SandboxSession, this, {
      core,
      taken: { ...this.taken },
      first: [...this.first],
    });
    return { session, bytes };
  }

  snapshot(): SandboxSnapshot {
    return {
      ...sandboxSnapshot(this.core, {
        name: this.name,
        steps: this.count,
        preloaded: this.preloaded,
        workers: this.script.workers,
        lastPopStep: this.lastPopStep,
      }),
      dispatch: { taken: { ...this.taken }, pops: this.pops, first: [...this.first] },
    };
  }
}
