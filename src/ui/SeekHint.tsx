/**
 * The seeking hint: when a seek (the timeline, step back, a decision picked in the log, a share link's
 * playhead) or compare mode's run B takes more than a moment to reach its place, a box at the bottom
 * of the window says where it is going, shows how far the replay has got and offers to stop it there
 * (a stopped replay leaves the run at the decision it reached, a state like any other). A polite live
 * region announces the start once; the progress bar carries the figures that change.
 */
import { useUi } from '../state/store';
import { compareRunner } from './compare/runner';
import { useCompare } from './compare/store';
import type { Driver } from './driver';
import { SEEK_HINT_DELAY_MS, useShownAfter } from './useShownAfter';
import { seekGoalText } from './seek-words';
import { fmtCount } from './views/format';
import './seek-hint.css';

const seconds = (t: number) => `t = ${t.toFixed(3)} s`;

export function SeekHint({ driver }: { driver: Driver }) {
  const seek = useUi((s) => s.seek);
  const kind = useUi((s) => s.kind);
  const seekB = useCompare((s) => (s.active ? s.seekB : null));
  const catchUp = useCompare((s) => (s.active ? s.catchUp : null));
  const showA = useShownAfter(seek?.since ?? null, SEEK_HINT_DELAY_MS);
  const showB = useShownAfter(seekB?.since ?? null, SEEK_HINT_DELAY_MS);
  const showCatchUp = useShownAfter(catchUp?.since ?? null, SEEK_HINT_DELAY_MS);
  const unit = kind === 'arbitration' ? 'step' : 'decision';
  const comparing = useCompare((s) => s.active);
  const run = comparing ? 'Run A: ' : '';
  const lines: string[] = [];
  if (seek && showA) lines.push(`${run}seeking to ${seekGoalText(seek.goal, unit, seek.landing)}…`);
  if (seekB && showB) lines.push(`Run B: seeking to ${unit} ${fmtCount(seekB.target)}…`);
  else if (catchUp && showCatchUp)
    lines.push(`Run B: catching up with A, seeking to ${seconds(catchUp.to)}…`);
  return (
    <div className={lines.length ? 'seek-hint on' : 'seek-hint'} data-testid="seek-hint">
      {/* always in the page, so the words are announced when they appear */}
      <p role="status" className="seek-hint-words">
        {lines.map((l) => (
          <span key={l}>{l.charAt(0).toUpperCase() + l.slice(1)}</span>
        ))}
      </p>
      {/* the button right after the fixed-width bar, before the figures that change: it stays put */}
      {seek && showA && (
        <div className="seek-hint-row">
          <progress
            aria-label={comparing ? 'Run A seek progress' : 'Seek progress'}
            max={Math.max(1, seek.target - seek.from)}
            value={Math.max(0, seek.at - seek.from)}
            aria-valuetext={`${unit} ${fmtCount(seek.at)} of ${fmtCount(seek.target)}, ${seconds(seek.time)}`}
          />
          <button
            type="button"
            className="small"
            title="Stop the replay here: the run stays at the decision it has reached"
            onClick={() => driver.cancelSeek()}
          >
            Stop seeking
          </button>
          <span className="seek-hint-at">
            {unit} {fmtCount(seek.at)} · {seconds(seek.time)}
            {seek.from > 0 ? ` · from the restore point at ${unit} ${fmtCount(seek.from)}` : ''}
          </span>
        </div>
      )}
      {seekB && showB && (
        <div className="seek-hint-row">
          <progress
            aria-label="Run B seek progress"
            max={Math.max(1, seekB.target)}
            value={seekB.at}
            aria-valuetext={`${unit} ${fmtCount(seekB.at)} of ${fmtCount(seekB.target)}`}
          />
          <button
            type="button"
            className="small"
            title="Stop run B's replay here: B stays at the decision it has reached"
            onClick={() => compareRunner(driver).stopSeekB()}
          >
            Stop B
          </button>
          <span className="seek-hint-at">
            B at {unit} {fmtCount(seekB.at)}
          </span>
        </div>
      )}
      {!(seekB && showB) && catchUp && showCatchUp && (
        <div className="seek-hint-row">
          <progress aria-label="Run B catching up" />
        </div>
      )}
    </div>
  );
}
