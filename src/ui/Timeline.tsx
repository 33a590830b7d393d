/**
 * The timeline: the playhead in decisions, scrubbed with a slider. Releasing (or a key press) seeks:
 * the worker restarts from its nearest restore point and replays deterministically to the target; a
 * replay that takes a while shows its progress in the seeking hint (SeekHint.tsx).
 */
import { useEffect, useState } from 'react';
import { useUi } from '../state/store';
import type { Driver } from './driver';
import { fmtCount } from './views/format';

export function Timeline({ driver }: { driver: Driver }) {
  const count = useUi((s) => s.decisionCount);
  const reach = useUi((s) => s.reach);
  const kind = useUi((s) => s.kind);
  const [drag, setDrag] = useState<number | null>(null);
  useEffect(() => {
    if (drag === null) return;
    const t = setTimeout(() => {
      void driver.seek({ decision: drag }).then(() => setDrag(null));
    }, 120);
    return () => clearTimeout(t);
  }, [drag, driver]);
  const max = Math.max(reach, count, 1);
  const value = drag ?? count;
  const unit = kind === 'arbitration' ? 'step' : 'decision';
  return (
    <div className="timeline">
      <label className="field grow">
        <span>Timeline</span>
        <input
          type="range"
          aria-label="Timeline"
          min={0}
          max={max}
          step={1}
          value={value}
          aria-valuetext={`${unit} ${value} of ${max}`}
          title={
            reach === 0
              ? 'Play or step first: the timeline covers what has been run'
              : 'Scrub to any decision: the run replays from the nearest restore point'
          }
          onChange={(e) => setDrag(Number(e.target.value))}
        />
      </label>
      <span className="timeline-count">
        {unit} {fmtCount(value)} / {fmtCount(Math.max(reach, count))}
      </span>
    </div>
  );
}
