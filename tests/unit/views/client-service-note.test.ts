import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ClientService } from '../../../src/ui/views/ClientService';
import type { SessionSnapshot } from '../../../src/worker/session';
import { clusterSnapshot } from './fixtures';

const render = (snapshot: SessionSnapshot) =>
  renderToStaticMarkup(h(ClientService, { snapshot, highlight: null }));

describe('Client service spread note', () => {
  test('the whole-run spread is given plainly, as a figure no theorem bounds', () => {
    const base = clusterSnapshot();
    const html = render({
      ...base,
      fairness_bound: { value: 300, label: 'DLPM bound' },
      guarantee: { ...base.guarantee, algorithm: 'dlpm', bound: 300, bound_label: 'DLPM bound' },
    });
    expect(html).toMatch(
      /class="cs-band-note cs-spread-whole">Totals so far \(t = [\d.]+ s\): leader − last client = 400\. No theorem bounds this spread/,
    );
  });
  test('the totals are called whole-run only once the run is over (a tryout read it at 60 s of 146 s)', () => {
    const base = clusterSnapshot();
    expect(render({ ...base, done: false } as SessionSnapshot)).toContain('Totals so far (t = ');
    expect(render({ ...base, done: false } as SessionSnapshot)).not.toContain('Whole-run totals');
    expect(render({ ...base, done: true } as SessionSnapshot)).toContain(
      'Whole-run totals: leader − last client = 400.',
    );
  });
  test('without a bound the backlogged gap and the spread are still given, with why nothing bounds them', () => {
    // (it takes about the room of the gauge, so a tour flipping from LPM to DLPM keeps little empty)
    const html = render(clusterSnapshot());
    expect(html).toContain('data-bound="none"');
    expect(html).toContain('no two clients backlogged together yet; no fairness theorem covers this run');
    expect(html).toContain('cs-spread-whole');
    // once the run is over nothing more can come: no "yet" (a tryout read it after the end)
    const done = render({ ...clusterSnapshot(), done: true } as SessionSnapshot);
    expect(done).toContain('no two clients were ever backlogged together in this run; no fairness theorem');
    expect(done).not.toContain('together yet');
  });
  test('the spread is of the totals now, not of the last sample (which lags them)', () => {
    // At t = 1.42 s the note read 14 796 (the sample at 1.35 s) beside a table reading 18 266.
    const base = clusterSnapshot();
    const html = render({
      ...base,
      sim_time_s: 4.3,
      clients: {
        alice: { ...base.clients.alice, service: 900 },
        bob: { ...base.clients.bob, service: 420 },
      },
    } as SessionSnapshot);
    expect(html).toContain('Totals so far (t = 4.3 s): leader − last client = 480.');
  });
});
