/**
 * A session is whatever the playground is currently running: the cluster simulator, the DRR sandbox
 * (an arbitration script), or the toy engine. The worker API drives any of them the same way.
 */
import { ToyEngine } from '../core/toy-engine';
import { parseYaml, type Problem } from '../format/yaml';

export interface SessionDecision {
  seq: number;
  t: number;
  kind: string;
  summary: string;
  [key: string]: unknown;
}

export interface Session {
  readonly kind: 'toy' | 'cluster' | 'arbitration';
  readonly name: string;
  /** One scheduling decision forward; null when the run is over. */
  step(): SessionDecision | null;
  runUntil(simTimeS: number): void;
  time(): number;
  done(): boolean;
  snapshot(): Record<string, unknown>;
}

export type LoadOutcome =
  | { ok: true; session: Session }
  | { ok: false; problems: Problem[]; source: 'scenario' | 'policy' };

class ToySession implements Session {
  readonly kind = 'toy' as const;
  private engine: ToyEngine;
  constructor(
    readonly name: string,
    seed: number,
  ) {
    this.engine = new ToyEngine(seed);
  }
  step() {
    return { ...this.engine.step() };
  }
  runUntil(t: number) {
    this.engine.runUntil(t);
  }
  time() {
    return this.engine.time;
  }
  done() {
    return false;
  }
  snapshot() {
    return { ...this.engine.snapshot(), scenario: this.name, clients: {} };
  }
}

/** Build a session from the scenario (or arbitration script) text and an optional policy text. */
export function loadSession(scenarioYaml: string, _policyYaml?: string): LoadOutcome {
  const parsed = parseYaml(scenarioYaml);
  if (!parsed.ok) return { ok: false, problems: parsed.problems, source: 'scenario' };
  const value = parsed.value.value as Record<string, unknown> | null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      source: 'scenario',
      problems: [{ line: 1, col: 1, message: 'expected a scenario (a YAML mapping)', path: [] }],
    };
  }
  const seed = typeof value.seed === 'number' ? value.seed : 1;
  const name = typeof value.name === 'string' ? value.name : 'untitled';
  return { ok: true, session: new ToySession(name, seed) };
}
