/**
 * DLPM's steps (seed 002, Algorithm 1) as the rules panel lists them, in our words, and the lines a
 * decision took: an admission record goes through the sort, the refill check, skips and the admit;
 * a batch step is the forward step's output charge.
 */
import type { AlgorithmDetail } from '../details';
import type { ListingSpec, StepsTaken } from '../listing';

export const dlpmListing: ListingSpec = {
  listing: {
    title: 'DLPM (Algorithm 1), every batching step on a worker',
    lines: [
      { id: 'new', text: 'A client seen for the first time starts with deficit q_i = 0', lines: '11–13' },
      { id: 'sort', text: 'Sort the waiting queue by cached prefix, longest first', lines: '16' },
      { id: 'scan', text: 'Go through it in that order; for a request of client i:', lines: '17–19' },
      {
        id: 'refill',
        indent: 1,
        text: 'q_i ≤ 0 and no waiting client has q > 0: every client at or below 0 gets +Q^u',
        lines: '3–7, 20',
      },
      { id: 'skip', indent: 1, text: 'q_i still ≤ 0: skip it, the request waits', lines: '21' },
      {
        id: 'no-room',
        indent: 1,
        text: "q_i > 0 but it doesn't fit (token budget, running limit, KV memory): it waits",
        lines: '22',
      },
      {
        id: 'admit',
        indent: 1,
        text: 'q_i > 0 and it fits: add it to the batch; q_i −= w_e · its uncached tokens',
        lines: '22–25',
      },
      {
        id: 'forward',
        text: 'Run the forward step; then q_i −= w_q · client i’s requests in the batch',
        lines: '26–27',
      },
    ],
    note: 'A queue longer than lpm_fcfs_fallback is scanned in arrival order instead of by prefix.',
  },
  taken: (kind, detail) => dlpmTaken(kind, detail),
};

export function dlpmTaken(kind: string, detail: AlgorithmDetail | null): StepsTaken | null {
  if (kind === 'step') return { fired: ['forward'], decisive: 'forward' };
  if (detail?.algo !== 'dlpm') return null;
  const fired = new Set<string>();
  if (detail.order.length > 0) fired.add('sort').add('scan');
  if (detail.refill || (detail.refills?.length ?? 0) > 0) fired.add('refill');
  if (detail.skipped.length > 0) fired.add('skip');
  if (detail.order.some((e) => e.outcome === 'no-room')) fired.add('no-room');
  if (detail.admitted.length > 0) fired.add('admit');
  const decisive = fired.has('admit')
    ? 'admit'
    : fired.has('no-room')
      ? 'no-room'
      : fired.has('skip')
        ? 'skip'
        : null;
  return { fired: [...fired], decisive };
}
