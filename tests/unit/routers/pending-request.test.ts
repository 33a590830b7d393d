/**
 * Routers must never see a request's true output length before it completes. This is a compile-time
 * rule (`PendingRequest` in src/core/router/router-policy.ts); `npm test` type-checks this file, so
 * if the rule were dropped the `@ts-expect-error` lines below would become errors themselves.
 */
import { describe, expect, it } from 'vitest';
import type { PendingRequest, RouterPolicy } from '../../../src/core/router/router-policy';
import type { SimRequest } from '../../../src/core/sim/request';

describe('PendingRequest', () => {
  it('hides the output length from route and onDispatch, and shows it to onComplete', () => {
    const peek = (r: PendingRequest): number => {
      // @ts-expect-error a router cannot read the true output length
      const a: number = r.outputLen;
      // @ts-expect-error nor through the request's spec
      const b: number = r.spec.outputTokens;
      return a + b + r.promptLen;
    };
    const policy: Pick<RouterPolicy, 'onComplete'> = {
      onComplete: (r: SimRequest) => {
        void r.outputLen; // known once the request has completed
      },
    };
    // @ts-expect-error a policy cannot widen route's parameter back to the full request
    const widened: Pick<RouterPolicy, 'route'> = { route: (r: SimRequest) => ({ worker: r.outputLen }) };
    expect([typeof peek, typeof policy.onComplete, typeof widened.route]).toEqual([
      'function',
      'function',
      'function',
    ]);
  });
});
