/**
 * Order inside one class heap. Larger key first, field by field: strict priority tier, then the due
 * time (earliest first, none last), then the
 * class's policy score, then the enqueue sequence (earlier first, one counter for all classes).
 */
import type { QueuePolicy } from './types';

/** FCFS rewards an early arrival plus a soft priority jump; WSPT rewards priority per unit of cost. */
export function policyScore(policy: QueuePolicy, priority: number, arrivalS: number, cost: number): number {
  const p = Math.max(priority, 0);
  if (policy === 'wspt') return (1 + p) / cost;
  return p - Math.max(arrivalS, 0);
}

/** The fields the comparator reads, precomputed once per request. */
export interface OrderKey {
  strictPriority: number;
  /**
   * Due time in seconds (a request classifier's `due_at`, Dynamo v1.6+); absent = none. Within a
   * strict tier, requests with a due time go first, earliest first, then the policy score.
   */
  due?: number;
  score: number;
  seq: number;
}

/** True when `a` must leave its class before `b`. A total order: sequence numbers are unique. */
export function goesFirst(a: OrderKey, b: OrderKey): boolean {
  if (a.strictPriority !== b.strictPriority) return a.strictPriority > b.strictPriority;
  const ad = a.due ?? Number.POSITIVE_INFINITY;
  const bd = b.due ?? Number.POSITIVE_INFINITY;
  if (ad !== bd) return ad < bd;
  if (a.score !== b.score) return a.score > b.score;
  return a.seq < b.seq;
}
