import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importBlis } from '../../../src/import/blis';
import { parseScenarioText } from '../../../src/scenario';
import { CLI_BUDGET, type RunBudget } from '../../../src/scenario/estimate';
import { pc } from '../program-client';

const UNLIMITED: RunBudget = {
  ...CLI_BUDGET,
  memoryMb: Number.MAX_SAFE_INTEGER,
  events: Number.MAX_SAFE_INTEGER,
};

const dist = fc.oneof(
  fc.record({
    type: fc.constant('constant'),
    params: fc.record({ value: fc.integer({ min: 0, max: 2000 }) }),
  }),
  fc
    .tuple(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: 0, max: 500 }),
    )
    .map(([mean, std, spread]) => ({
      type: 'gaussian',
      params: { mean, std_dev: std, min: Math.max(0, mean - spread), max: mean + spread },
    })),
  fc.record({
    type: fc.constant('exponential'),
    params: fc.record({ mean: fc.integer({ min: 1, max: 800 }) }),
  }),
  fc.record({
    type: fc.constant('pareto_lognormal'),
    params: fc.record({
      alpha: fc.double({ min: 0.5, max: 4, noNaN: true }),
      xm: fc.integer({ min: 1, max: 200 }),
      mu: fc.double({ min: 2, max: 6, noNaN: true }),
      sigma: fc.double({ min: 0, max: 1, noNaN: true }),
      mix_weight: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  }),
  fc.uniqueArray(fc.integer({ min: 1, max: 1500 }), { minLength: 1, maxLength: 5 }).map((keys) => ({
    type: 'empirical',
    params: Object.fromEntries(keys.map((k, i) => [String(k), i + 1])),
  })),
);

const client = fc.record(
  {
    id: fc.string({ maxLength: 12 }),
    slo_class: fc.constantFrom('', 'critical', 'standard', 'batch', 'sheddable', 'background'),
    rate_fraction: fc.double({ min: 0.01, max: 5, noNaN: true }),
    arrival: fc.oneof(
      fc.record({ process: fc.constantFrom('poisson', 'constant') }),
      fc.record({
        process: fc.constantFrom('gamma', 'weibull'),
        cv: fc.double({ min: 0.01, max: 10, noNaN: true }),
      }),
    ),
    input_distribution: dist,
    output_distribution: dist,
    prefix_group: fc.constantFrom('g1', 'g two'),
    prefix_length: fc.integer({ min: 0, max: 600 }),
    reasoning: fc.record({
      multi_turn: fc.record({
        max_rounds: fc.integer({ min: 1, max: 5 }),
        think_time_us: fc.integer({ min: 0, max: 5e6 }),
      }),
    }),
  },
  { requiredKeys: ['rate_fraction', 'arrival', 'input_distribution', 'output_distribution'] },
);

describe('importBlis on generated valid specs', () => {
  it('always yields a scenario the parser accepts, with the client rates summing to aggregate_rate', () => {
    fc.assert(
      fc.property(
        fc.array(client, { minLength: 1, maxLength: 4 }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
        (clients, aggregate, horizonS) => {
          const spec: Record<string, unknown> = { version: '2', aggregate_rate: aggregate, clients };
          if (horizonS !== undefined) spec.horizon = horizonS * 1e6;
          const r = importBlis(stringify(spec));
          if (!r.ok) throw new Error(JSON.stringify(r.problems));
          // A generated workload may be too big for the page (up to 50 req/s for 600 s of multi-turn
          // programs): the importer then says so, and that must be the only thing to edit.
          const edit = r.notes.find((n) => n.includes('needs an edit'));
          if (edit) expect(edit).toContain("exceed the page's budget");
          // …and apart from its size it must be a valid scenario (a budget only its size can exceed)
          const parsed = parseScenarioText(r.scenarioYaml, edit ? { budget: UNLIMITED } : {});
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
          const total = parsed.value.clients.reduce((s, c) => {
            const a = pc(c).arrival;
            return s + ('rate' in a ? a.rate : 0);
          }, 0);
          expect(Math.abs(total - aggregate) / aggregate).toBeLessThan(1e-4);
          expect(new Set(parsed.value.clients.map((c) => c.name)).size).toBe(clients.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
