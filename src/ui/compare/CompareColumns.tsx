/**
 * Compare mode's view columns: run A's and run B's key views side by side (Client service, Workers,
 * and the DRR ring when both have policy-class queues), each labelled "A: …" / "B: …" with its decision
 * count. The two columns scroll together. Escape (outside dialogs) leaves compare mode (keys.ts).
 */
import { type ReactNode, useMemo, useRef } from 'react';
import { type UiState, useUi } from '../../state/store';
import type { SessionSnapshot } from '../../worker/session';
import { formatSimTime } from '../Controls';
import { useCalm } from '../useCalm';
import { ClientService, DrrRing, Workers } from '../views';
import { fmtCount } from '../views/format';
import { ServiceScaleContext, sharedServiceScale } from '../views/service-scale';
import { RunLabel } from './RunLabel';
import { useCompare } from './store';

const selectSnapshot = (s: UiState) => s.snapshot;

function hasDrr(snapshot: SessionSnapshot | null): boolean {
  return snapshot?.drr !== undefined;
}

function Column({
  side,
  label,
  title,
  decisions,
  note,
  scrollRef,
  onScroll,
  children,
}: {
  side: 'A' | 'B';
  label: string;
  /** The label's tooltip: every override of run B. */
  title?: string | null;
  decisions: number;
  note?: string;
  scrollRef: React.RefObject<HTMLDivElement | null>;
  onScroll: () => void;
  children: ReactNode;
}) {
  const name = `${side}: ${label}`;
  return (
    <section
      className={`column compare-column compare-${side.toLowerCase()}`}
      aria-label={name}
      ref={scrollRef}
      onScroll={onScroll}
    >
      <header className="compare-head">
        <h2 title={title ?? undefined}>
          <span className={`compare-tag tag-${side.toLowerCase()}`}>{side}</span> <RunLabel label={label} />
        </h2>
        <span className="compare-count" data-side={side}>
          {fmtCount(decisions)} decisions{note ? ` · ${note}` : ''}
        </span>
      </header>
      <div className="views compare-views">{children}</div>
    </section>
  );
}

export function CompareColumns() {
  const snapshotA = useCalm(selectSnapshot);
  const decisionsA = useUi((s) => s.decisionCount);
  const doneA = useUi((s) => s.done);
  // each run's own clock is shown once one of them is over (they no longer share one moment)
  const endA = useUi((s) => (s.done ? s.simTime : null));
  const timeB = useCompare((s) => s.simTimeB);
  const kind = useUi((s) => s.kind);
  const snapshotB = useCompare((s) => s.snapshotB);
  const labelA = useCompare((s) => s.labelA);
  const labelB = useCompare((s) => s.labelB);
  const titleB = useCompare((s) => s.titleB);
  const decisionsB = useCompare((s) => s.decisionsB);
  const doneB = useCompare((s) => s.doneB);
  const busy = useCompare((s) => s.busy);
  const error = useCompare((s) => s.error);
  const refA = useRef<HTMLDivElement>(null);
  const refB = useRef<HTMLDivElement>(null);
  const syncing = useRef(false);
  const mirror = (from: HTMLDivElement | null, to: HTMLDivElement | null) => {
    if (!from || !to || syncing.current) return;
    syncing.current = true;
    to.scrollTop = from.scrollTop;
    requestAnimationFrame(() => {
      syncing.current = false;
    });
  };
  const ring = kind === 'arbitration' || (hasDrr(snapshotA) && hasDrr(snapshotB));
  // one service scale for both columns: the same height is the same service in A and B
  const scale = useMemo(() => sharedServiceScale([snapshotA, snapshotB]), [snapshotA, snapshotB]);
  const clock = (t: number) => (kind === 'arbitration' ? `step ${fmtCount(t)}` : formatSimTime(t));
  const views = (snapshot: SessionSnapshot | null) =>
    kind === 'arbitration' ? (
      <DrrRing snapshot={snapshot} />
    ) : (
      <>
        <ClientService snapshot={snapshot} />
        <Workers snapshot={snapshot} />
        {ring && <DrrRing snapshot={snapshot} />}
      </>
    );
  return (
    <ServiceScaleContext.Provider value={scale}>
      <Column
        side="A"
        label={labelA}
        decisions={decisionsA}
        note={doneA ? `run over at ${clock(endA ?? 0)}` : undefined}
        scrollRef={refA}
        onScroll={() => mirror(refA.current, refB.current)}
      >
        {views(snapshotA)}
      </Column>
      <Column
        side="B"
        label={labelB}
        title={titleB}
        decisions={decisionsB}
        note={
          error
            ? 'stopped'
            : doneB
              ? `run over at ${clock(timeB)}`
              : doneA
                ? `at ${clock(timeB)}, going on`
                : busy
                  ? 'catching up'
                  : undefined
        }
        scrollRef={refB}
        onScroll={() => mirror(refB.current, refA.current)}
      >
        {error && (
          <p className="banner error" role="alert">
            {error}
          </p>
        )}
        {views(snapshotB)}
      </Column>
    </ServiceScaleContext.Provider>
  );
}
