/**
 * DFS-weight (SGLang): order the waiting queue by a depth-first walk of this worker's radix cache,
 * heaviest branch first, so requests that share a prefix are admitted together.
 *
 * Each waiting request hangs at the radix node its cached prefix ends in. A node's weight is the
 * number of requests hanging there plus the weights of its children. The walk visits a node's
 * children by descending weight (ties: older node, i.e. smaller id, first) and emits the node's own
 * requests after its whole subtree (post-order), so the root's requests (nothing cached) come last.
 * A match that ends inside an edge is treated as hanging at a split point just above that node:
 * after the node's own requests, deeper split points first; equal matches keep queue order.
 * Admission stops at the first request that does not fit (head-of-line), as in LPM.
 *
 * This file's `dfsWeightOrder` re-reads every waiting request's match (../shared/matched-queue.ts),
 * walks up to the root per request to sum weights and sorts the children of the touched nodes:
 * O(n · depth) per batch step. It is the reference: the policy in use keeps the same order live
 * under the radix cache's changes (./live-policy.ts), and the tests compare the two step by step.
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

/** Queue indexes in DFS-weight order, with each request's cached prefix. */
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
    kids.sort((a, b) => (weight.get(b) as number) - (weight.get(a) as number) || a.id - b.id);
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
}

/** The reference DFS-weight: the whole queue re-read and walked every step (tests compare with it). */
export const createDfsWeightReference = () => new OrderedQueuePolicy('dfs-weight', new DfsWeightRule());

/** Test-only: `reference` makes `createDfsWeight` build the reference (byte-for-byte run comparisons). */
export const dfsWeightImplementation = { reference: false };

export const createDfsWeight = (): LocalPolicy =>
  dfsWeightImplementation.reference ? createDfsWeightReference() : new LiveDfsWeightPolicy();
