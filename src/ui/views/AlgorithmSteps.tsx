/**
 * The rules panel of a DLPM or DoubleQ run: the algorithm's steps (each algorithm folder words its own
 * listing, src/core/algorithms/<name>/listing.ts) with the step the selected decision took marked, as
 * the DRR ring's panel marks Dynamo's visit rules. Without a selection it reads the run's latest
 * decision of that algorithm. A DoubleQ run shows both listings: DoubleQ routes, DLPM orders each
 * worker's queue.
 */
import {
  type ListingSpec,
  routingAlgorithm,
  schedulerAlgorithm,
  type StepsTaken,
} from '../../core/algorithms';
import type { AlgorithmDetail } from '../../core/algorithms';
import type { SessionDecision, SessionDecisionKind, SessionSnapshot } from '../../worker/session';
import { clusterOf } from './read';

/** A decision as the panel reads it: its number, kind and algorithm detail (null when it wrote none). */
export interface StepDecision {
  seq: number;
  kind: SessionDecisionKind;
  detail: AlgorithmDetail | null;
}

/** A decision's algorithm detail, when it wrote one (admissions and dispatches of most algorithms). */
export function algorithmDetail(d: SessionDecision): AlgorithmDetail | null {
  const det = d.detail;
  return det && 'algo' in det && det.algo !== undefined ? det : null;
}

/**
 * The newest decision of one of `algos` up to the playhead: the decision log's window is searched
 * first, then the snapshot's `latest_algorithm` (each algorithm's newest admission or dispatch, kept
 * by the engine), whichever is newer. The window alone is not enough: by the end of a run its last
 * few hundred decisions may all be completions and steps.
 */
export function latestStepDecision(
  decisions: readonly SessionDecision[],
  snapshot: SessionSnapshot | null,
  algos: readonly string[],
): SessionDecision | null {
  const wanted = (d: SessionDecision) => {
    const det = algorithmDetail(d);
    return det !== null && algos.includes(det.algo);
  };
  let best: SessionDecision | null = null;
  for (let i = decisions.length - 1; i >= 0; i--)
    if (wanted(decisions[i])) {
      best = decisions[i];
      break;
    }
  if (snapshot?.kind === 'cluster')
    for (const d of snapshot.latest_algorithm) if (wanted(d) && (best === null || d.seq > best.seq)) best = d;
  return best;
}

export interface RunListing {
  /** The algorithm's name (dlpm, doubleq). */
  name: string;
  spec: ListingSpec;
}

/** The listings of the run's router and worker schedulers, router first. */
export function runListings(snapshot: SessionSnapshot | null): RunListing[] {
  const sim = clusterOf(snapshot);
  if (!sim) return [];
  const out: RunListing[] = [];
  const routing = sim.router.routing;
  const r = routingAlgorithm(routing);
  if (r?.listing) out.push({ name: routing, spec: r.listing });
  for (const p of new Set(sim.workers.map((w) => w.policy))) {
    const s = schedulerAlgorithm(p);
    if (s?.listing) out.push({ name: p, spec: s.listing });
  }
  return out;
}

export function AlgorithmSteps({
  listings,
  decision,
  selected,
}: {
  listings: readonly RunListing[];
  decision: StepDecision | null;
  /** The decision is the one selected in the log (else the latest one of these algorithms). */
  selected: boolean;
}) {
  if (listings.length === 0) return null;
  const taken = listings.map((l) => (decision ? l.spec.taken(decision.kind, decision.detail) : null));
  const label = decision
    ? `${selected ? 'Selected' : 'Latest'} decision #${decision.seq + 1} (${decision.kind})`
    : 'No decision of these algorithms yet: press Step or Play.';
  return (
    <section
      className="panel view algo-view"
      aria-label="Algorithm steps"
      data-decision={decision ? decision.seq : ''}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
    >
      <h2>
        Algorithm steps <span className="view-sub">{label}</span>
      </h2>
      <div className="algo-listings">
        {listings.map((l, i) => (
          <Listing key={l.name} name={l.name} spec={l.spec} taken={taken[i]} />
        ))}
      </div>
      <p className="legend algo-key">
        <span>▶ settled the decision</span>
        <span>• also ran</span>
        <span>l. = line in the paper's listing</span>
        <span>select a line in the Decision log to read another decision</span>
      </p>
    </section>
  );
}

function Listing({ name, spec, taken }: { name: string; spec: ListingSpec; taken: StepsTaken | null }) {
  const fired = new Set(taken?.fired ?? []);
  const decisive = taken?.decisive ?? null;
  return (
    <div className="algo-listing" data-algorithm={name}>
      <h3>{spec.listing.title}</h3>
      <ol className="drr-rule-list algo-lines">
        {spec.listing.lines.map((line) => (
          <li
            key={line.id}
            data-step={line.id}
            className={[
              fired.has(line.id) ? 'fired' : '',
              decisive === line.id ? 'decisive current' : '',
              line.indent ? 'indent' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            aria-current={decisive === line.id ? 'step' : undefined}
          >
            <span className="drr-rule-mark" aria-hidden="true">
              {decisive === line.id ? '▶' : fired.has(line.id) ? '•' : ''}
            </span>
            <span className="algo-text">{line.text}</span>
            {line.lines ? <span className="algo-ln">l. {line.lines}</span> : null}
          </li>
        ))}
      </ol>
      {spec.listing.note ? <p className="muted algo-note">{spec.listing.note}</p> : null}
    </div>
  );
}
