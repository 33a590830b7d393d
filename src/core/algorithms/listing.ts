/**
 * An algorithm's steps as short lines for the rules panel beside the views (the way an algorithm
 * visualiser shows the listing and marks the line that ran), and which of them one decision took.
 * Each algorithm folder words its own listing after its source's pseudo-code; `lines` names the
 * source's line numbers so a reader can find them there.
 */
import type { SessionDecisionKind } from '../snapshot';
import type { AlgorithmDetail } from './details';

export interface ListingLine {
  /** Stable id, used to mark the line (data-step). */
  id: string;
  text: string;
  /** The source listing's line numbers this line stands for, e.g. '20–21'. */
  lines?: string;
  /** 1 for a line inside the loop above it. */
  indent?: 0 | 1;
}

export interface AlgorithmListing {
  /** Heading, e.g. 'DLPM — Algorithm 1, every batching step on a worker'. */
  title: string;
  lines: readonly ListingLine[];
  /** What the listing leaves out or where we read it differently from its source. */
  note?: string;
}

/** The lines one decision went through, and the one that settled it. */
export interface StepsTaken {
  fired: readonly string[];
  decisive: string | null;
}

/**
 * A listing and how to read a decision against it. `kind` is the decision's kind (admit, dispatch,
 * step, complete …), `detail` its algorithm detail when it wrote one (null otherwise).
 */
export interface ListingSpec {
  listing: AlgorithmListing;
  taken: (kind: SessionDecisionKind, detail: AlgorithmDetail | null) => StepsTaken | null;
}
