/**
 * The features' own UI state (zustand): which panel is open, the sweep (its progress and points)
 * and the tour's position. The playground's store (src/state/store.ts) is only read.
 */
import { create } from 'zustand';
import type { RunResult } from '../../core/sim';

export type FeaturePanel = 'sweep' | 'export' | 'import' | 'tour' | null;

export type Scale = 'linear' | 'log';

export interface SweepPoint {
  /** The swept value, or null for a baseline (another policy for comparison). */
  value: number | null;
  label: string;
  sets: string[];
  result: RunResult | null;
  error: string | null;
}

export interface SweepRun {
  /** What was swept, for the charts' axis. */
  key: string;
  label: string;
  unit: string;
  /** How the swept values were spaced: log-spaced values are drawn on a log axis. */
  scale?: Scale;
  scenarioName: string;
  /** The texts the sweep ran on (a point opens as these plus its overrides). */
  scenario: string;
  policy?: string;
  /** The shipped scenario it came from (a preset), for the picker when a point opens. */
  scenarioId?: string;
  status: 'running' | 'done' | 'cancelled';
  done: number;
  total: number;
  points: SweepPoint[];
}

export interface FeatureState {
  panel: FeaturePanel;
  sweep: SweepRun | null;
  tour: { id: string; step: number } | null;
  /** Busy message of a tour step being prepared (loading, seeking). */
  tourBusy: boolean;
}

export const useFeatures = create<FeatureState>(() => ({
  panel: null,
  sweep: null,
  tour: null,
  tourBusy: false,
}));

export function openPanel(panel: FeaturePanel): void {
  useFeatures.setState({ panel });
}
