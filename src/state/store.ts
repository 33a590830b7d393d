/** Coarse UI state (zustand). High-rate data (frames) lives in the driver, not here. */
import { create } from 'zustand';
import type { Problem } from '../format/yaml';
import type { SessionDecision } from '../worker/session';

/** Speed steps in decisions per simulated... per wall second; the last means "as fast as possible". */
export const SPEEDS = [1, 2, 5, 10, 25, 50, 100, 250, 1000, 5000, Number.POSITIVE_INFINITY] as const;
export const DEFAULT_SPEED_INDEX = 4;

export function speedLabel(index: number): string {
  const v = SPEEDS[index];
  return Number.isFinite(v) ? `${v} decision${v === 1 ? '' : 's'}/s` : 'as fast as possible';
}

export interface UiState {
  playing: boolean;
  speedIndex: number;
  scenarioId: string;
  scenarioName: string;
  kind: 'toy' | 'cluster' | 'arbitration' | null;
  simTime: number;
  done: boolean;
  snapshot: Record<string, unknown> | null;
  decisions: SessionDecision[];
  problems: Problem[];
  message: string | null;
  setPlaying(p: boolean): void;
  setSpeedIndex(i: number): void;
  setMessage(m: string | null): void;
}

export const useUi = create<UiState>((set) => ({
  playing: false,
  speedIndex: DEFAULT_SPEED_INDEX,
  scenarioId: '',
  scenarioName: '',
  kind: null,
  simTime: 0,
  done: false,
  snapshot: null,
  decisions: [],
  problems: [],
  message: null,
  setPlaying: (playing) => set({ playing }),
  setSpeedIndex: (speedIndex) => set({ speedIndex }),
  setMessage: (message) => set({ message }),
}));
