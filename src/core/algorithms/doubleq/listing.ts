/**
 * DoubleQ's steps (seed 002, Algorithm 2) as the rules panel lists them, in our words, and the lines a
 * decision took: a dispatch goes through the prefix match, the credit check (with its refills) and
 * one of the two choices; a completion is the output charge. Each worker then runs DLPM.
 */
import type { AlgorithmDetail } from '../details';
import type { ListingSpec, StepsTaken } from '../listing';

export const doubleqListing: ListingSpec = {
  listing: {
    title: 'DoubleQ (Algorithm 2), the router, for each arriving request of client i',
    lines: [
      { id: 'match', text: 'G = the workers holding its longest cached prefix (global tree)', lines: '13' },
      { id: 'avail', text: 'G_avail = the workers where q_{i,w} > 0', lines: '4' },
      {
        id: 'refill',
        indent: 1,
        text: 'while G_avail is empty: q_{i,w} += Q^w on every worker',
        lines: '5–6',
      },
      {
        id: 'locality',
        text: 'G ∩ G_avail not empty: send it to the shortest queue among them (locality)',
        lines: '7–8',
      },
      { id: 'fairness', text: 'else: send it to the shortest queue in G_avail (fairness)', lines: '8' },
      {
        id: 'charge',
        text: 'On dispatch to w: q_{i,w} −= w_e · its input tokens; its prompt joins the tree',
        lines: '15–18',
      },
      { id: 'finish', text: 'When it finishes on w: q_{i,w} −= w_q · its output tokens', lines: '21–22' },
      { id: 'local', text: 'Each worker orders its own queue with DLPM (Algorithm 1)' },
    ],
    note: "The paper's listing swaps the two returns of SELECTWORKER; these lines follow the rule its text states.",
  },
  taken: (kind, detail) => doubleqTaken(kind, detail),
};

export function doubleqTaken(kind: string, detail: AlgorithmDetail | null): StepsTaken | null {
  if (kind === 'complete') return { fired: ['finish'], decisive: 'finish' };
  if (kind === 'admit' && detail?.algo === 'dlpm') return { fired: ['local'], decisive: 'local' };
  if (detail?.algo !== 'doubleq') return null;
  const both = detail.g.some((w) => detail.g_avail.includes(w));
  const fired = [
    'match',
    'avail',
    ...(detail.refills > 0 ? ['refill'] : []),
    both ? 'locality' : 'fairness',
    'charge',
  ];
  return { fired, decisive: both ? 'locality' : 'fairness' };
}
