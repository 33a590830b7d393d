/**
 * DFS-weight (SGLang): order the waiting queue by a depth-first walk of this worker's radix cache,
 * heaviest branch first, so requests that share a prefix are admitted together.
 *
 * Each waiting request hangs at the radix node its cached prefix ends in. A node's weight is the
 * number of requests hanging there plus the weights of its children. The walk visits a node's
 * children by descending weight and emits the node's own requests after its whole subtree
 * (post-order), so the root's requests (nothing cached) come last. Admission stops at the first
 * request that does not fit (head-of-line), as in LPM.
 *
 * Ties fall as in SGLang, whose scheduler rebuilds one waiting list from the walk at every step and
 * keeps the result as the list the next step starts from:
 *   - requests hanging at one node keep their order in that list (the previous step's output, with
 *     requests that arrived since at its end, or a preempted one at its front under optimistic
 *     admission), not their arrival order;
 *   - children of equal weight come in the order they entered their parent's children dict
 *     (`RadixNode.slot`: a split's upper node takes the place of the node it cut, an evicted node
 *     that comes back goes last).
 * SGLang's lookup splits an edge where a match ends inside it; ours does not, and such a match hangs
 * at a split point inside that node instead. A chain of split nodes gives, in post-order, the node's
 * own requests first, then the split points from the deepest up, each in list order: so a node's
 * requests here are ordered by longer match, then list order.
 *
 * This file's `dfsWeightOrder` re-reads every waiting request's match (../shared/matched-queue.ts),
 * walks up to the root per request to sum weights and sorts the children of the touched nodes:
 * O(n · depth) per batch step, and the queue then keeps the order (`keeps`), as SGLang's list does.
 * It is the reference: the policy in use keeps the same order live under the radix cache's changes
 * (./live-policy.ts), and the tests compare the two step by step.
 */
import type { LocalPolicy, WorkerView } from '../../replica/local-policy';
import type { RadixNode } from '../../replica/radix-cache';
import type { MatchedQueue } from '../shared/matched-queue';
import { OrderedQueuePolicy, type QueueRule } from '../shared/ordered-queue';
import { LiveDfsWeightPolicy } from './live-policy';

/** What an admission under DFS-weight records. */
export interface DfsWeightDetail {
  algo: 'dfs-weight';
  prefix_match: number;
  rank: number;
}

interface Hanging {
  index: number;
  match: number;
}

/**
 * Queue indexes in DFS-weight order, with each request's cached prefix. The queue is SGLang's list:
 * at a node, longer matches (deeper split points) first, then list order.
 */
export function dfsWeightOrder(
  queue: MatchedQueue,
  worker: WorkerView,
): { order: number[]; match: Int32Array } {
  const radix = worker.radix;
  const n = queue.length;
  const match = new Int32Array(n);
  const weight = new Map<RadixNode, number>();
  const hanging = new Map<RadixNode, Hanging[]>();
  for (let i = 0; i < n; i++) {
    const m = queue.matchEnd(i, radix);
    match[i] = m.length;
    let list = hanging.get(m.node);
    if (list === undefined) {
      list = [];
      hanging.set(m.node, list);
    }
    list.push({ index: i, match: m.length });
    for (let node: RadixNode | null = m.node; node !== null; node = node.parent)
      weight.set(node, (weight.get(node) ?? 0) + 1);
  }
  const order: number[] = [];
  // iterative post-order: a frame is a node and its children still to visit (heaviest first)
  const stack: { node: RadixNode; kids: RadixNode[]; next: number }[] = [];
  const open = (node: RadixNode) => {
    const kids: RadixNode[] = [];
    if (node.children !== null) for (const c of node.children.values()) if (weight.has(c)) kids.push(c);
    kids.sort((a, b) => (weight.get(b) as number) - (weight.get(a) as number) || a.slot - b.slot);
    stack.push({ node, kids, next: 0 });
  };
  if (n > 0) open(radix.root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next < top.kids.length) {
      open(top.kids[top.next++]);
      continue;
    }
    stack.pop();
    const list = hanging.get(top.node);
    if (list !== undefined) {
      list.sort((a, b) => b.match - a.match || a.index - b.index);
      for (const h of list) order.push(h.index);
    }
  }
  return { order, match };
}

type DfsOrder = ReturnType<typeof dfsWeightOrder>;

/** DFS-weight's rule: the heaviest radix branch first (see `dfsWeightOrder`). */
export class DfsWeightRule implements QueueRule<DfsOrder> {
  order(queue: MatchedQueue, worker: WorkerView): DfsOrder {
    return dfsWeightOrder(queue, worker);
  }

  why(o: DfsOrder, i: number): string {
    return `heaviest radix branch first (${o.match[i]} tokens cached)`;
  }

  detail(o: DfsOrder, i: number, rank: number): DfsWeightDetail {
    return { algo: 'dfs-weight', prefix_match: o.match[i], rank };
  }

  /** SGLang replaces its waiting list by the walk's output: the next step starts from this order. */
  keeps(): boolean {
    return !dfsWeightImplementation.rebuildFromArrival;
  }
}

/** The reference DFS-weight: the whole queue re-read and walked every step (tests compare with it). */
export const createDfsWeightReference = () => new OrderedQueuePolicy('dfs-weight', new DfsWeightRule());

/**
 * Test-only: `reference` makes `createDfsWeight` build the reference (byte-for-byte run comparisons);
 * `rebuildFromArrival` makes the reference forget each step's order (ties in arrival order again).
 */
export const dfsWeightImplementation = { reference: false, rebuildFromArrival: false };

export const createDfsWeight = (): LocalPolicy =>
  dfsWeightImplementation.reference ? createDfsWeightReference() : new LiveDfsWeightPolicy();
