/**
 * The views must never throw, whatever arrives: partial snapshots, wrong types, older or newer shapes.
 * Random objects are built from the keys the readers look at, mixed with arbitrary JSON values, and
 * random subtrees of a valid cluster snapshot are replaced with junk.
 */
import fc from 'fast-check';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ClassQueues } from '../../../src/ui/views/ClassQueues';
import { ClientService } from '../../../src/ui/views/ClientService';
import { DrrRing } from '../../../src/ui/views/DrrRing';
import { Figures } from '../../../src/ui/views/Figures';
import type { ViewProps } from '../../../src/ui/views/types';
import { Workers } from '../../../src/ui/views/Workers';
import { burstScript, clusterSnapshot, sessionSnapshot } from './fixtures';

const VIEWS: [string, (p: ViewProps) => unknown][] = [
  ['DRR ring', DrrRing],
  ['Class queues', ClassQueues],
  ['Client service', ClientService],
  ['Workers', Workers],
  ['Figures', Figures],
];

function renderAll(snapshot: Record<string, unknown> | null, highlight: ViewProps['highlight'] = null): void {
  for (const [name, view] of VIEWS) {
    const html = renderToStaticMarkup(h(view as (p: ViewProps) => null, { snapshot, highlight }));
    expect(html).toContain(`aria-label="${name}"`);
    expect(html).not.toMatch(/NaN|undefined|\[object Object\]/);
  }
}

const KEYS = [
  'drr',
  'classes',
  'cursor',
  'carry',
  'name',
  'quantum',
  'deficit',
  'queued',
  'headCost',
  'blocked',
  'queues',
  'requests',
  'id',
  'cost',
  'priority',
  'arrivalS',
  'lastRecord',
  'visits',
  'phase',
  'class',
  'outcome',
  'bulkRounds',
  'chosen',
  'clients',
  'service',
  'counter',
  'workers',
  'running',
  'waiting',
  'waitingCount',
  'kvUsedBlocks',
  'kvTotalBlocks',
  'radix',
  'top',
  'nodes',
  'series',
  't',
  'rows',
  'service:a',
  'recent',
  'kind',
  'detail',
  'sim_time_s',
  'router',
  'state',
  'deficits',
  'fairness_bound',
  'value',
  'ttft_p50_s',
];

const leaf = fc.oneof(
  fc.constantFrom(
    null,
    0,
    -1,
    1,
    3,
    1e12,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'A',
    'drr-pop',
    'scan',
    'granted',
    true,
  ),
  fc.double(),
  // No text that the no-NaN/undefined check below would mistake for a rendering defect.
  fc.string({ maxLength: 6 }).filter((x) => !/NaN|undefined|object/.test(x)),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 5 }),
  ),
})).node;
const snapshotArb = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 8 });

/** Replace the value at a random path of `base` with `junk`. */
function corrupt(base: unknown, path: number[], junk: unknown): unknown {
  if (path.length === 0 || base === null || typeof base !== 'object') return junk;
  const entries = Array.isArray(base) ? base.map((v, i) => [i, v] as const) : Object.entries(base);
  if (entries.length === 0) return junk;
  const [k] = entries[path[0] % entries.length];
  const copy = (Array.isArray(base) ? [...base] : { ...base }) as Record<string | number, unknown>;
  copy[k] = corrupt((base as Record<string | number, unknown>)[k], path.slice(1), junk);
  return copy;
}

describe('views on malformed snapshots', () => {
  test('random objects with the readers’ keys never crash a view', () => {
    fc.assert(
      fc.property(snapshotArb, (snap) => {
        renderAll(snap);
      }),
      { numRuns: 150 },
    );
  });

  test('a valid cluster or sandbox snapshot with one subtree replaced by junk never crashes a view', () => {
    const bases = [clusterSnapshot(), sessionSnapshot(burstScript(), 12)];
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1),
        fc.array(fc.nat(40), { minLength: 1, maxLength: 5 }),
        value,
        fc.record(
          {
            request: fc.string({ maxLength: 4 }),
            class: fc.constantFrom('A', 'standard'),
            worker: fc.integer(),
            node: fc.integer(),
          },
          { requiredKeys: [] },
        ),
        (which, path, junk, highlight) => {
          renderAll(corrupt(bases[which], path, junk) as Record<string, unknown>, highlight);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('null, empty and non-object snapshots show empty states', () => {
    renderAll(null);
    renderAll({});
    renderAll([] as unknown as Record<string, unknown>);
  });
});
