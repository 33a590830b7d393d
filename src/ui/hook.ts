/**
 * `window.fairground`: the test and automation hook of the UI contract (shared spec/ui.md). The four
 * contract functions are unchanged; `editor`, `seek`, `state` and `frameStats` are additions for tests
 * and the benchmark.
 */
import { formatProblems } from '../format/yaml';
import { extractPolicy, setTexts, useEdits } from '../state/edits';
import { useUi } from '../state/store';
import type { WorkerApi } from '../worker/client';
import type { Driver } from './driver';
import { editorHandle } from './editor/registry';
import { explainLast } from './features';
import type { EditorMarker, EditorWhich } from './editor/types';

export interface EditorHook {
  /** 'monaco', 'textarea', or 'loading' while Monaco is on its way. */
  mode(which: EditorWhich): 'monaco' | 'textarea' | 'loading';
  text(which: EditorWhich): string;
  markers(which: EditorWhich): EditorMarker[];
  /** Type into an editor as a user would (the edit is applied after the usual pause). */
  setText(which: EditorWhich, text: string): void;
}

export interface FairgroundHook {
  load(scenarioYaml: string, policyYaml?: string): Promise<void>;
  step(n?: number): Promise<void>;
  runUntil(simTimeS: number): Promise<void>;
  snapshot(): Promise<Record<string, unknown>>;
  editor: EditorHook;
  /** Move the playhead to a decision count by replay. */
  seek(decision: number): Promise<void>;
  /** Coarse UI state: playhead, playing, kind, problems. */
  state(): { decisionCount: number; simTime: number; playing: boolean; kind: string | null; done: boolean };
  /** Largest frame received from the worker, in bytes. */
  frameStats(): Promise<{ maxFrameBytes: number }>;
  /** The newest decision told step by step in plain words (numbered lines). */
  explain(): Promise<string>;
}

declare global {
  interface Window {
    fairground: FairgroundHook;
  }
}

export function installHook(driver: Driver, api: WorkerApi): FairgroundHook {
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
      };
    },
    frameStats: async () => ({ maxFrameBytes: useUi.getState().frameBytesMax }),
    explain: explainLast,
  };
  window.fairground = hook;
  return hook;
}
