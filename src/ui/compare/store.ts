/** Compare mode's own UI state (zustand): whether it is on, run B's latest frame and the samples. */
import { create } from 'zustand';
import type { SessionSnapshot } from '../../worker/session';
import type { Sample } from './diff';
import type { CompareSettings } from './settings';

export interface CompareState {
  active: boolean;
  dialogOpen: boolean;
  /** Run B is loading or catching up with A. */
  busy: boolean;
  settings: CompareSettings | null;
  labelA: string;
  labelB: string;
  /** Every override run B has, one a line, for its label's tooltip (null: none). */
  titleB: string | null;
  /** Run B's snapshot and clock at the last synchronised moment. */
  snapshotB: SessionSnapshot | null;
  /** Run A's snapshot at that same moment (A may have moved on since). */
  pairedA: SessionSnapshot | null;
  simTimeB: number;
  decisionsB: number;
  doneB: boolean;
  /**
   * Run B has taken decisions of its own after run A's end (Play or Step once A is over): where it is
   * is its decision count, not A's clock, and a share link says so (`compare.playhead`).
   */
  playedOn: boolean;
  /** Run B is replaying to a share link's playhead: where it is and where it goes (decisions). */
  seekB: { at: number; target: number; since: number } | null;
  /** Run B is catching up with A's simulated time `to` (one worker call, started at `since`, performance.now()). */
  catchUp: { to: number; since: number } | null;
  history: Sample[];
  /** Why the last attempt to start (or follow) run B failed. */
  error: string | null;
}

export const useCompare = create<CompareState>(() => ({
  active: false,
  dialogOpen: false,
  busy: false,
  settings: null,
  labelA: '',
  labelB: '',
  titleB: null,
  snapshotB: null,
  pairedA: null,
  simTimeB: 0,
  decisionsB: 0,
  doneB: false,
  playedOn: false,
  seekB: null,
  catchUp: null,
  history: [],
  error: null,
}));

/**
 * Run B still has decisions to take: comparing, B loaded and not over, not stopped by an error. Once
 * run A is over, Play and Step move B on to its own end (runner.ts, Driver.setFollower).
 */
export function bGoesOn(s: CompareState): boolean {
  return s.active && !s.doneB && s.error === null;
}
