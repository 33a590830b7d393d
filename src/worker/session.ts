/**
 * A session is whatever the playground is currently running: the cluster simulator, the DRR sandbox
 * (an arbitration script), or the toy engine. The worker API drives any of them the same way: one
 * `step()` is one scheduling decision (in the sandbox: one enqueue or one pop).
 */
import { ToyEngine } from '../core/toy-engine';
import type { Problem } from '../format/yaml';

/** One decision as the decision log shows it; the optional fields link it to what it touched. */
export interface SessionDecision {
  /** 0-based index of the decision since the load. */
  seq: number;
  t: number;
  kind: string;
  summary: string;
  request?: string;
  client?: string;
  worker?: number;
  class?: string;
  [key: string]: unknown;
}

export type SessionKind = 'toy' | 'cluster' | 'arbitration';

export interface Session {
  readonly kind: SessionKind;
  readonly name: string;
  readonly description: string;
  /** One scheduling decision forward; null when the run is over. */
  step(): SessionDecision | null;
  /** Advance until simulated time reaches `simTimeS` (or the run ends). */
  runUntil(simTimeS: number): void;
  time(): number;
  /** Decisions taken since the load. */
  decisions(): number;
  done(): boolean;
  /** Total steps when known up front (an arbitration script), else null. */
  totalSteps(): number | null;
  snapshot(): Record<string, unknown>;
}

export type LoadOutcome =
  | { ok: true; session: Session; make: () => Session }
  | { ok: false; problems: Problem[]; source: 'scenario' | 'policy' };

/** The toy engine behind the Session interface: the fallback while nothing else understands a document. */
export class ToySession implements Session {
  readonly kind = 'toy' as const;
  private engine: ToyEngine;
  private count = 0;
  constructor(
    readonly name: string,
    readonly description: string,
    seed: number,
  ) {
    this.engine = new ToyEngine(seed);
  }
  step(): SessionDecision {
    const d = this.engine.step();
    this.count++;
    return { seq: d.seq, t: d.t, kind: d.kind, summary: d.summary, request: `r${d.request}` };
  }
  runUntil(t: number): void {
    while (this.engine.time < t) this.step();
  }
  time(): number {
    return this.engine.time;
  }
  decisions(): number {
    return this.count;
  }
  done(): boolean {
    return false;
  }
  totalSteps(): null {
    return null;
  }
  snapshot(): Record<string, unknown> {
    return { ...this.engine.snapshot(), scenario: this.name, clients: {} };
  }
}
