/**
 * Words for where a seek is and where it goes (pure, unit-tested): the seeking hint's target, and
 * what the timeline says. At rest the timeline gives the playhead and the run's length so far,
 * "decision 2 845 / 6 012". While a seek replays: where the replay is now and where it goes,
 * "decision 640 → 30 000" (or "→ t = 12.500 s" for a time target), the same figure the clock and the
 * views show, never the target alone (which, on a fresh page, read like the end of the run).
 */
import type { SeekProgress } from '../state/store';
import type { SeekTarget } from '../worker/api';
import { fmtCount } from './views/format';

const seconds = (t: number) => `t = ${t.toFixed(3)} s`;

/**
 * Where a seek goes, in words: `t = 12.500 s` or `decision 10 320` (`step` in the DRR sandbox), and,
 * when the run has been there before, the other half: `decision 10 320 (t = 61.204 s)`,
 * `t = 12.500 s (decision 2 048)`. (A sandbox step has no simulated time to add.)
 */
export function seekGoalText(
  goal: SeekTarget,
  unit: 'decision' | 'step',
  landing: SeekProgress['landing'] = { decision: null, time: null },
): string {
  if ('time' in goal)
    return landing.decision === null
      ? seconds(goal.time)
      : `${seconds(goal.time)} (${unit} ${fmtCount(landing.decision)})`;
  const at = `${unit} ${fmtCount(goal.decision)}`;
  return landing.time === null || unit === 'step' ? at : `${at} (${seconds(landing.time)})`;
}

export interface TimelineInput {
  /** The store's playhead: during a replay, the decision the replay has reached. */
  count: number;
  reach: number;
  /** The slider position being dragged (a seek to it follows), or null. */
  drag: number | null;
  /** The seek under way, once it has taken long enough to show (null otherwise). */
  seek: Pick<SeekProgress, 'at' | 'target' | 'goal' | 'landing'> | null;
  unit: 'decision' | 'step';
  /** The run is over (nothing left for Play or Step); the words say so when the playhead is at its end. */
  over?: boolean;
}

export interface TimelineView {
  /** The slider's range and position. */
  max: number;
  value: number;
  /** The words beside the slider, and the slider's value text for screen readers. */
  text: string;
  valueText: string;
  /** A longer account for the count's tooltip. */
  title: string | null;
}

export function timelineView({ count, reach, drag, seek, unit, over = false }: TimelineInput): TimelineView {
  // the slider reaches the seek's target too: a link's playhead is ahead of anything run so far
  const max = Math.max(reach, count, seek?.target ?? 0, 1);
  const value = drag ?? count;
  if (!seek) {
    // at the end of a run that is over, a visible word: greyed Play and Step alone did not say why
    const end = over && drag === null && count >= reach;
    return {
      max,
      value,
      text: `${unit} ${fmtCount(value)} / ${fmtCount(Math.max(reach, count))}${end ? ' · end' : ''}`,
      valueText: `${unit} ${value} of ${max}${end ? ', the end of the run' : ''}`,
      title: end
        ? 'The run is over: Reset to start again, or step back or scrub to look at any decision'
        : null,
    };
  }
  const goal =
    'time' in seek.goal ? seconds(seek.goal.time) : fmtCount(seek.landing.decision ?? seek.goal.decision);
  const goalWords = 'time' in seek.goal ? goal : `${unit} ${goal}`;
  return {
    max,
    value,
    text: `${unit} ${fmtCount(count)} → ${goal}`,
    valueText: `${unit} ${value} of ${max}, replaying: at ${unit} ${count}, going to ${
      'time' in seek.goal ? goal : `${unit} ${seek.landing.decision ?? seek.goal.decision}`
    }`,
    title: `Replaying: the run is at ${unit} ${fmtCount(count)}, on its way to ${goalWords}`,
  };
}
