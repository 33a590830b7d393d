/**
 * The worker's API, exposed with comlink. It owns the running session and a bounded log of recent
 * decisions; the UI pulls one frame per animation frame with `advance`, never a message per event.
 */
import type { Problem } from '../format/yaml';
import { loadSession, type Session, type SessionDecision } from './session';

export const LOG_LIMIT = 500;

export interface Frame {
  snapshot: Record<string, unknown>;
  /** Decisions taken during this advance (newest last), at most LOG_LIMIT. */
  decisions: SessionDecision[];
  done: boolean;
}

export type LoadResult =
  | { ok: true; kind: Session['kind']; name: string }
  | { ok: false; problems: Problem[]; source: 'scenario' | 'policy' };

export interface AdvanceBudget {
  /** Most decisions to take. */
  decisions: number;
  /** Stop early after this much wall time in the worker (keeps frames flowing at high speed). */
  maxWallMs?: number;
}

export class FairgroundApi {
  private session: Session | null = null;
  private source: { scenario: string; policy?: string } | null = null;
  private log: SessionDecision[] = [];

  async load(scenarioYaml: string, policyYaml?: string): Promise<LoadResult> {
    const outcome = loadSession(scenarioYaml, policyYaml);
    if (!outcome.ok) return outcome;
    this.session = outcome.session;
    this.source = { scenario: scenarioYaml, policy: policyYaml };
    this.log = [];
    return { ok: true, kind: outcome.session.kind, name: outcome.session.name };
  }

  async reset(): Promise<void> {
    if (!this.source) return;
    await this.load(this.source.scenario, this.source.policy);
  }

  private need(): Session {
    if (!this.session) throw new Error('no scenario loaded');
    return this.session;
  }

  private remember(d: SessionDecision) {
    this.log.push(d);
    if (this.log.length > LOG_LIMIT * 2) this.log = this.log.slice(-LOG_LIMIT);
  }

  async step(n = 1): Promise<Frame> {
    return this.advance({ decisions: n });
  }

  async advance(budget: AdvanceBudget): Promise<Frame> {
    const s = this.need();
    const taken: SessionDecision[] = [];
    const start = performance.now();
    for (let i = 0; i < budget.decisions; i++) {
      const d = s.step();
      if (!d) break;
      this.remember(d);
      taken.push(d);
      if (taken.length > LOG_LIMIT) taken.shift();
      if (budget.maxWallMs !== undefined && (i & 63) === 63 && performance.now() - start > budget.maxWallMs)
        break;
    }
    return { snapshot: s.snapshot(), decisions: taken, done: s.done() };
  }

  async runUntil(simTimeS: number): Promise<Frame> {
    const s = this.need();
    s.runUntil(simTimeS);
    return { snapshot: s.snapshot(), decisions: [], done: s.done() };
  }

  async snapshot(): Promise<Record<string, unknown>> {
    return this.need().snapshot();
  }

  async recentDecisions(limit = LOG_LIMIT): Promise<SessionDecision[]> {
    return this.log.slice(-limit);
  }
}
