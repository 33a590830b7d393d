/**
 * Coarse UI state (zustand): what is playing, what is loaded, what the user selected. The driver
 * writes one frame's worth of data per animation frame; views read it through selectors.
 */
import { create } from 'zustand';
import type { Problem } from '../format/yaml';
import type { SeekTarget } from '../worker/api';
import type { SessionDecision, SessionKind, SessionSnapshot } from '../worker/session';

/** Speed steps in decisions per wall-clock second; the last means "as fast as possible". */
export const SPEEDS = [1, 2, 5, 10, 25, 50, 100, 250, 1000, 5000, Number.POSITIVE_INFINITY] as const;
export const DEFAULT_SPEED_INDEX = 4;
/** Decisions the log keeps (newest last). */
export const UI_LOG_LIMIT = 200;

export function speedLabel(index: number): string {
  const v = SPEEDS[index];
  return Number.isFinite(v) ? `${v} decision${v === 1 ? '' : 's'}/s` : 'as fast as possible';
}

export type EditorTab = 'policy' | 'scenario';

export interface Problems {
  scenario: Problem[];
  policy: Problem[];
}

export interface SeekProgress {
  at: number;
  target: number;
  /** Where the replay started: a restore point's decision, or 0 (the start). */
  from: number;
  /** What the seek was asked for: a decision count or a simulated time. */
  goal: SeekTarget;
  /** Simulated time the replay has reached. */
  time: number;
  /**
   * Where the seek lands when the run has been there before: the decision and the simulated time
   * then (null: not known yet, e.g. a link's playhead on a page that has not run that far).
   */
  landing: { decision: number | null; time: number | null };
  /** performance.now() when the seek started (the hint shows only for seeks that take a while). */
  since: number;
}

export interface UiState {
  playing: boolean;
  speedIndex: number;
  scenarioId: string;
  scenarioName: string;
  description: string;
  kind: SessionKind | null;
  simTime: number;
  /** Decisions taken since the load: the playhead. */
  decisionCount: number;
  /** Largest playhead reached (or the script's total steps): the timeline's length. */
  reach: number;
  totalSteps: number | null;
  done: boolean;
  snapshot: SessionSnapshot | null;
  decisions: SessionDecision[];
  /** Problems of the last load attempt, by the text they belong to. */
  problems: Problems;
  message: string | null;
  /**
   * The banner offers to download the editors' texts while `message` is this text (set with it; any
   * other message, set anywhere, shows no button, so the offer never outlives its message).
   */
  messageDownload: string | null;
  /** An unexpected error (global handler): shown with a way on; null when none. */
  crash: string | null;
  /** Seq of the decision selected in the log. */
  selected: number | null;
  editorTab: EditorTab;
  helpOpen: boolean;
  /** A share link to show when the clipboard is not available (or always, after Share). */
  shareLink: string | null;
  /** Whether the last Share also reached the clipboard. */
  shareCopied: boolean;
  seek: SeekProgress | null;
  /** Frames received and the largest one (bytes), for the benchmark. */
  frameBytesMax: number;
  setPlaying(p: boolean): void;
  setSpeedIndex(i: number): void;
  setMessage(m: string | null): void;
}

export const useUi = create<UiState>((set) => ({
  playing: false,
  speedIndex: DEFAULT_SPEED_INDEX,
  scenarioId: '',
  scenarioName: '',
  description: '',
  kind: null,
  simTime: 0,
  decisionCount: 0,
  reach: 0,
  totalSteps: null,
  done: false,
  snapshot: null,
  decisions: [],
  problems: { scenario: [], policy: [] },
  message: null,
  messageDownload: null,
  crash: null,
  selected: null,
  editorTab: 'policy',
  helpOpen: false,
  shareLink: null,
  shareCopied: false,
  seek: null,
  frameBytesMax: 0,
  setPlaying: (playing) => set({ playing }),
  setSpeedIndex: (speedIndex) => set({ speedIndex }),
  setMessage: (message) => set({ message }),
}));
