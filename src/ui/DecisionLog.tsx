/**
 * One readable line per decision, newest first. Click a line (or use ↑/↓ with the log focused) to
 * pause and highlight the request, class, client or worker it touched in the views.
 */
import { memo, useCallback, useLayoutEffect, useRef } from 'react';
import { type UiState, useUi } from '../state/store';
import type { SessionDecision } from '../worker/session';
import type { Driver } from './driver';
import { FoldHeading, useFoldProps } from './phone/Fold';
import { seekGoalText } from './seek-words';
import { useCalm } from './useCalm';
import { SEEK_HINT_DELAY_MS, useShownAfter } from './useShownAfter';
import { fmtCount } from './views/format';

/** Lines the log shows (the newest). */
const LOG_SHOWN = 80;

function Links({ d }: { d: SessionDecision }) {
  return (
    <span className="links">
      {d.request && <span className="chip req">{d.request}</span>}
      {d.class && <span className="chip cls">class {d.class}</span>}
      {d.client && <span className="chip cli">{d.client}</span>}
      {d.worker !== undefined && d.worker !== null && <span className="chip wrk">worker {d.worker}</span>}
    </span>
  );
}

const Row = memo(function Row({
  d,
  selected,
  onPick,
}: {
  d: SessionDecision;
  selected: boolean;
  onPick: (seq: number, el: HTMLElement) => void;
}) {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard selection is on the list (arrows)
    <li
      data-seq={d.seq}
      className={selected ? 'selected' : undefined}
      aria-current={selected ? 'true' : undefined}
      onClick={(e) => onPick(d.seq, e.currentTarget)}
    >
      <span className="t">#{d.seq + 1}</span> <span className="summary">{d.summary}</span> <Links d={d} />
    </li>
  );
});

const selectDecisions = (s: UiState) => s.decisions;

/** How long after a click the log keeps the picked line where it was (the lines after it leave in bursts). */
const ANCHOR_MS = 2000;

/**
 * Put `seq`'s line `offset` px below the top of the log's visible box, scrolling the log only (not
 * the page); a line that would then fall outside the box is brought just inside it.
 */
function keepLine(ol: HTMLElement, seq: number, offset: number): boolean {
  const li = ol.querySelector<HTMLElement>(`li[data-seq="${seq}"]`);
  if (!li) return false;
  const box = ol.getBoundingClientRect();
  const at = li.getBoundingClientRect();
  const want = Math.max(0, Math.min(offset, ol.clientHeight - at.height));
  const delta = at.top - box.top - want;
  if (Math.abs(delta) >= 1) ol.scrollTop += delta;
  return true;
}

export function DecisionLog({ driver }: { driver: Driver }) {
  const decisions = useCalm(selectDecisions);
  const selected = useUi((s) => s.selected);
  const kind = useUi((s) => s.kind);
  const count = useUi((s) => s.decisionCount);
  const seek = useUi((s) => s.seek);
  // a replay under way (shown once the seeking hint is): its lines reach the log in bursts, thousands
  // of decisions behind the clock (or not at all, "No decisions yet"), so the log says where the
  // replay is instead and shows its lines where it lands
  const replaying = useShownAfter(seek?.since ?? null, SEEK_HINT_DELAY_MS) ? seek : null;
  const unit = kind === 'arbitration' ? 'step' : 'decision';
  const fold = useFoldProps('log');
  const newestFirst = decisions.slice(-LOG_SHOWN).reverse();
  const listRef = useRef<HTMLOListElement>(null);
  // the line a click picked and where it was in the log: picking moves the playhead back, so the
  // newer lines leave the log above it; without this the log kept its scroll offset and the picked
  // line ended above the visible box (a tryout on a phone)
  const anchor = useRef<{ seq: number; offset: number; until: number } | null>(null);
  const onPick = useCallback(
    (seq: number, el: HTMLElement) => {
      if (useUi.getState().selected === seq) {
        anchor.current = null;
        driver.select(null);
        return;
      }
      const ol = listRef.current;
      if (ol) {
        const offset = el.getBoundingClientRect().top - ol.getBoundingClientRect().top;
        anchor.current = { seq, offset, until: performance.now() + ANCHOR_MS };
      }
      void driver.pick(seq);
    },
    [driver],
  );
  // after each render, until the log has landed on it, put the picked line back where it was clicked
  const newest = newestFirst[0]?.seq ?? null;
  useLayoutEffect(() => {
    const a = anchor.current;
    const ol = listRef.current;
    if (!a || !ol) return;
    if (performance.now() > a.until || useUi.getState().selected !== a.seq) {
      anchor.current = null;
      return;
    }
    if (keepLine(ol, a.seq, a.offset) && newest === a.seq) anchor.current = null;
  });
  const move = (delta: number) => {
    // the store's log, not the one drawn: the drawn one is calmed (useCalm) and may still show the
    // lines of a replay under way (a seek back goes through a restore point), so a key pressed then
    // would find no selected line in it and jump to that replay's newest line
    const { decisions: now, selected } = useUi.getState();
    const newestFirst = now.slice(-LOG_SHOWN).reverse();
    if (!newestFirst.length) return;
    const i = newestFirst.findIndex((d) => d.seq === selected);
    // pressed during a seek, the log holds the replay's lines: move from the selection itself
    if (i < 0 && selected !== null) {
      const to = selected - delta;
      if (to >= 0 && to < useUi.getState().reach) void driver.pick(to);
      return;
    }
    // the playhead follows the selection, so the log ends at it: newer than its newest line is the
    // next decision, one step on (up to the furthest point the run has reached)
    if (i === 0 && delta < 0 && selected !== null && selected + 1 < useUi.getState().reach) {
      void driver.pick(selected + 1);
      return;
    }
    const next = newestFirst[Math.min(newestFirst.length - 1, Math.max(0, i < 0 ? 0 : i + delta))];
    void driver
      .pick(next.seq)
      .then(() => document.querySelector(`[data-seq="${next.seq}"]`)?.scrollIntoView({ block: 'nearest' }));
  };
  return (
    <section className="panel log-panel" aria-labelledby="decision-log-title" {...fold}>
      <div className="panel-head">
        <FoldHeading fold="log" id="decision-log-title" title="Decision log" count={fmtCount(count)} />
        {selected !== null && (
          <button
            type="button"
            className="small"
            onClick={() => driver.select(null)}
            title="Clear the highlight"
          >
            Clear selection
          </button>
        )}
      </div>
      <ol
        ref={listRef}
        className="decision-log"
        role="log"
        aria-label="Decision log"
        aria-busy={replaying ? true : undefined}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the log is one tab stop; arrows move the selection
        tabIndex={0}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            move(1);
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            move(-1);
          } else if (e.key === 'Escape' && useUi.getState().selected !== null) {
            // this Escape clears the selection only (not also the page's Escape: leave compare mode…)
            e.preventDefault();
            driver.select(null);
          }
        }}
      >
        {replaying && (
          <li className="empty replaying" data-testid="log-replaying">
            Replaying to {seekGoalText(replaying.goal, unit, replaying.landing)}: at {unit} {fmtCount(count)}.
            Its lines show here when it lands.
          </li>
        )}
        {!replaying && newestFirst.length === 0 && (
          <li className="empty">
            No decisions yet. Press Play or Step (→)
            {kind === 'arbitration' ? ': each step is one enqueue or one pop.' : '.'}
          </li>
        )}
        {!replaying &&
          newestFirst.map((d) => <Row key={d.seq} d={d} selected={d.seq === selected} onPick={onPick} />)}
      </ol>
    </section>
  );
}
