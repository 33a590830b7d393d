/** `window.fairground`: the test and automation hook of the UI contract (shared spec/ui.md). */
import type { WorkerApi } from '../worker/client';
import type { Driver } from './driver';

export interface FairgroundHook {
  load(scenarioYaml: string, policyYaml?: string): Promise<void>;
  step(n?: number): Promise<void>;
  runUntil(simTimeS: number): Promise<void>;
  snapshot(): Promise<Record<string, unknown>>;
}

declare global {
  interface Window {
    fairground: FairgroundHook;
  }
}

export function installHook(driver: Driver, api: WorkerApi): FairgroundHook {
  const hook: FairgroundHook = {
    load: (scenario, policy) => driver.loadOrThrow(scenario, policy),
    step: (n = 1) => driver.step(Math.max(1, Math.floor(n))),
    runUntil: (t) => driver.runUntil(t),
    snapshot: () => api.snapshot(),
  };
  window.fairground = hook;
  return hook;
}
