/**
 * The timeline: the playhead in decisions, scrubbed with a slider. Releasing (or a key press) seeks:
 * the worker restarts from its nearest restore point and replays deterministically to the target; a
 * replay that takes a while shows its progress in the seeking hint (SeekHint.tsx).
 */
import { useEffect, useState } from 'react';
import { useUi } from '../state/store';
import type { Driver } from './driver';
import { timelineView } from './seek-words';
import { SEEK_HINT_DELAY_MS, useShownAfter } from './useShownAfter';

export function Timeline({ driver }: { driver: Driver }) {
  const count = useUi((s) => s.decisionCount);
  const reach = useUi((s) => s.reach);
  const kind = useUi((s) => s.kind);
  const seek = useUi((s) => s.seek);
  const over = useUi((s) => s.done);
  // a seek shows as a replay once the seeking hint shows too (a short one changes nothing here)
  const replaying = useShownAfter(seek?.since ?? null, SEEK_HINT_DELAY_MS);
  const [drag, setDrag] = useState<number | null>(null);
  useEffect(() => {
    if (drag === null) return;
    const t = setTimeout(() => {
      void driver.seek({ decision: drag }).then(() => setDrag(null));
    }, 120);
    return () => clearTimeout(t);
  }, [drag, driver]);
  const unit = kind === 'arbitration' ? 'step' : 'decision';
  const shownSeek = seek && replaying ? seek : null;
  const view = timelineView({ count, reach, drag, seek: shownSeek, unit, over });
  return (
    <div className="timeline">
      <label className="field grow">
        <span>Timeline</span>
        <input
          type="range"
          aria-label="Timeline"
          min={0}
          max={view.max}
          step={1}
          value={view.value}
          aria-valuetext={view.valueText}
          title={
            reach === 0
              ? 'Play or step first: the timeline covers what has been run'
              : 'Scrub to any decision: the run replays from the nearest restore point'
          }
          onChange={(e) => setDrag(Number(e.target.value))}
        />
      </label>
      <span
        className={shownSeek ? 'timeline-count replaying' : 'timeline-count'}
        data-testid="timeline-count"
        title={view.title ?? undefined}
      >
        {view.text}
      </span>
    </div>
  );
}
