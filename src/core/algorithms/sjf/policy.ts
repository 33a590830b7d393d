/**
 * sjf (BLIS): the shortest prompt first (input tokens ascending), then arrival, then request id.
 * No aging: under sustained load a long prompt can wait for ever while shorter ones keep arriving
 * (the playground lets users watch that starvation happen).
 */
import { KeyedOrderPolicy } from '../shared/keyed-order';

/** What an admission under sjf records. */
export interface SjfDetail {
  algo: 'sjf';
  input_tokens: number;
  arrival_s: number;
}

export const createSjf = () =>
  new KeyedOrderPolicy({
    name: 'sjf',
    key: (r) => r.promptLen,
    why: (r) => `shortest prompt first (${r.promptLen} tokens)`,
    detail: (r): SjfDetail => ({ algo: 'sjf', input_tokens: r.policyKey, arrival_s: r.arrivalT }),
  });
