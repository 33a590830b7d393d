/**
 * sjf (BLIS): the shortest prompt first (input tokens ascending), then arrival, then request id.
 * No aging: under sustained load a long prompt can wait for ever while shorter ones keep arriving
 * (the playground lets users watch that starvation happen).
 */
import type { LocalPolicyFactory } from '../local-policy';
import { KeyedOrderPolicy } from './keyed-order';

export const createSjf: LocalPolicyFactory = () =>
  new KeyedOrderPolicy({
    name: 'sjf',
    keyName: 'input_tokens',
    key: (r) => r.promptLen,
    why: (r) => `shortest prompt first (${r.promptLen} tokens)`,
  });
