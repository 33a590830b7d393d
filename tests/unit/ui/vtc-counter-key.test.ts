/**
 * The Client service view's key to VTC's counters, with client_weights. The counters then grow by
 * service divided by the client's weight, but the key said "service raises a counter" and named no
 * weight, so a weight-2 client's bar, level with a weight-1 client's, read as equal service when it
 * stood for twice as much. The policy now reports each client's weight with its counter (only when
 * some weight is not 1) and the key says how the bars read, with the weights.
 */
import { describe, expect, it } from 'vitest';
import { counterKey } from '../../../src/ui/views/ClientService';
import { Harness, range } from '../policies/harness';

describe('VTC counters with client_weights, in the Client service view', () => {
  it('the policy reports each client’s weight with its counter, only when some weight is not 1', () => {
    const weighted = new Harness({
      policy: 'vtc',
      clients: ['a', 'b'],
      scheduler: { client_weights: { a: 2 } },
    });
    weighted.add({ id: 'a1', client: 'a', tokens: range(0, 20), out: 2 });
    weighted.step();
    expect(weighted.policy.clientState?.()).toMatchObject({ kind: 'counter', weight: [2, 1] });
    const plain = new Harness({
      policy: 'vtc',
      clients: ['a', 'b'],
      scheduler: { client_weights: { a: 1 } },
    });
    plain.add({ id: 'a1', client: 'a', tokens: range(0, 20), out: 2 });
    plain.step();
    expect(plain.policy.clientState?.()).not.toHaveProperty('weight');
  });

  it('the key says the counters are service per unit of weight, and lists the weights', () => {
    expect(
      counterKey([
        { name: 'alice', weight: 2 },
        { name: 'bob', weight: 1 },
      ]),
    ).toBe(
      "The smallest counter among waiting clients goes next; service raises a counter divided by the client's weight (client_weights: alice 2, bob 1), so the bars compare service per unit of weight.",
    );
    // no weights: as before
    expect(counterKey([{ name: 'alice', weight: null }])).toBe(
      'The smallest counter among waiting clients goes next; service raises a counter.',
    );
  });
});
