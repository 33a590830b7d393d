import type { SessionSnapshot } from '../../worker/session';

/** What a view may be asked to emphasise: usually the subject of the decision selected in the log. */
export interface Highlight {
  request?: string;
  client?: string;
  worker?: number;
  class?: string;
  /** A radix-tree node id (as in the worker's radix summary) to mark with its path from the root. */
  node?: number;
}

export interface ViewProps {
  /** The current snapshot: a cluster run's or the DRR sandbox's (core/snapshot.ts). */
  snapshot: SessionSnapshot | null;
  highlight?: Highlight | null;
  /** Called when the viewer picks something in a view (a request chip, a class, a worker, a client). */
  onSelect?: (h: Highlight) => void;
}
