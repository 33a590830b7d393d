/**
 * `window.fairground`: the test and automation hook of the UI contract (shared spec/ui.md). The four
 * contract functions are unchanged; `editor`, `seek`, `state`, `frameStats`, `restorePoints` and the
 * rest are additions for tests and the benchmark.
 */
import { formatProblems } from '../format/yaml';
import { extractPolicy, setTexts, useEdits } from '../state/edits';
import { useUi } from '../state/store';
import { startSweepWorker, type WorkerApi } from '../worker/client';
import type { SessionKind, SessionSnapshot } from '../worker/session';
import { runPointOn, type SweepPointOutcome } from '../worker/sweep-runner';
import { compareRunner } from './compare/runner';
import { useCompare } from './compare/store';
import type { Driver } from './driver';
import { editorHandle } from './editor/registry';
import { explainLast } from './features';
import { localTraceTables } from './features/trace-file-store';
import type { EditorMarker, EditorWhich } from './editor/types';

export interface EditorHook {
  /** 'monaco', 'textarea', or 'loading' while Monaco is on its way. */
  mode(which: EditorWhich): 'monaco' | 'textarea' | 'loading';
  text(which: EditorWhich): string;
  markers(which: EditorWhich): EditorMarker[];
  /** The cursor's line and column (null while the editor loads). */
  cursor(which: EditorWhich): { line: number; col: number } | null;
  /** Type into an editor as a user would (the edit is applied after the usual pause). */
  setText(which: EditorWhich, text: string): void;
}

export interface FairgroundHook {
  load(scenarioYaml: string, policyYaml?: string): Promise<void>;
  step(n?: number): Promise<void>;
  runUntil(simTimeS: number): Promise<void>;
  snapshot(): Promise<SessionSnapshot>;
  editor: EditorHook;
  /** Move the playhead to a decision count by replay. */
  seek(decision: number): Promise<void>;
  /** Coarse UI state: playhead, playing, kind, problems. */
  state(): {
    decisionCount: number;
    simTime: number;
    playing: boolean;
    kind: SessionKind | null;
    done: boolean;
    /** Seq of the decision selected in the log (null when none). */
    selected: number | null;
  };
  /** Largest frame received from the worker, in bytes. */
  frameStats(): Promise<{ maxFrameBytes: number }>;
  /** The worker's restore points (their playheads) and where the last backward seek replayed from. */
  restorePoints(): Promise<{ decisions: number[]; lastSeekFrom: number }>;
  /** The newest decision told step by step in plain words (numbered lines). */
  explain(): Promise<string>;
  /**
   * Compare mode: run B = the current scenario with these `key.path=value` overrides (or `{scenario}`
   * for a full copy), kept at A's simulated time. Resolves once B has caught up.
   */
  compare(
    sets: string[] | { scenario?: string; policy?: string; sets?: string[]; label?: string },
  ): Promise<void>;
  /** Leave compare mode. */
  exitCompare(): void;
  /** Run B's snapshot at A's current simulated time (null when not comparing). */
  snapshotB(): Promise<SessionSnapshot | null>;
  /**
   * A whole run in a fresh worker, as `fairground run --json` prints it (the CLI's result object; its
   * wall_time_s is this machine's): for comparing the browser's engine with Node's.
   */
  runResult(scenarioYaml: string, sets?: string[]): Promise<SweepPointOutcome>;
  /** Compare mode's coarse state. */
  compareState(): {
    active: boolean;
    labelA: string;
    labelB: string;
    simTimeB: number;
    decisionsB: number;
    /** Run B is at its end. */
    doneB: boolean;
    /** Run B's worker has work under way (loading, following A, or playing on). */
    busy: boolean;
  };
}

declare global {
  interface Window {
    fairground: FairgroundHook;
  }
}

export function installHook(driver: Driver, api: WorkerApi): FairgroundHook {
  // Created now so that a share link opened at start-up finds its comparison restored.
  const compare = compareRunner(driver);
  const hook: FairgroundHook = {
    async load(scenario, policy) {
      const res = await driver.load(scenario, policy, { id: '' });
      if (!res.ok) throw new Error(formatProblems(res.problems, res.source));
      const original = { scenario, policy: extractPolicy(scenario) };
      setTexts({ scenario, policy: policy ?? original.policy }, original);
    },
    step: (n = 1) => driver.step(Math.max(1, Math.floor(n))),
    runUntil: (t) => driver.runUntil(t),
    snapshot: () => api.snapshot(),
    editor: {
      mode: (which) => editorHandle(which)?.kind ?? 'loading',
      text: (which) => editorHandle(which)?.getValue() ?? useEdits.getState().texts[which],
      markers: (which) => editorHandle(which)?.markers() ?? [],
      cursor: (which) => editorHandle(which)?.position() ?? null,
      setText(which, text) {
        const h = editorHandle(which);
        if (!h) throw new Error(`the ${which} editor is not ready`);
        h.setValue(text);
        driver.typed(which, text);
      },
    },
    seek: (decision) => driver.seek({ decision }),
    state() {
      const s = useUi.getState();
      return {
        decisionCount: s.decisionCount,
        simTime: s.simTime,
        playing: s.playing,
        kind: s.kind,
        done: s.done,
        selected: s.selected,
      };
    },
    frameStats: async () => ({ maxFrameBytes: useUi.getState().frameBytesMax }),
    async restorePoints() {
      const [points, stats] = await Promise.all([api.restorePoints(), api.stats()]);
      return { decisions: points.decisions, lastSeekFrom: stats.lastSeekFrom };
    },
    explain: explainLast,
    compare: (settings) => compare.enter(Array.isArray(settings) ? { sets: settings } : settings),
    exitCompare: () => compare.exit(),
    snapshotB: () => compare.snapshotB(),
    async runResult(scenario, sets = []) {
      // a dropped trace lives in the page's worker: the one-off worker gets a copy of each table
      const traces = await localTraceTables(driver, scenario);
      const { api: w, terminate } = startSweepWorker();
      try {
        return await runPointOn(w, { scenario, sets }, traces);
      } finally {
        terminate();
      }
    },
    compareState() {
      const c = useCompare.getState();
      return {
        active: c.active,
        labelA: c.labelA,
        labelB: c.labelB,
        simTimeB: c.simTimeB,
        decisionsB: c.decisionsB,
        doneB: c.doneB,
        busy: c.busy,
      };
    },
  };
  window.fairground = hook;
  return hook;
}
