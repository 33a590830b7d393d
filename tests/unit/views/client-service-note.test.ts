import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ClientService } from '../../../src/ui/views/ClientService';
import type { SessionSnapshot } from '../../../src/worker/session';
import { clusterSnapshot } from './fixtures';

const render = (snapshot: SessionSnapshot) =>
  renderToStaticMarkup(h(ClientService, { snapshot, highlight: null }));

describe('Client service band note', () => {
  test('the band legend says it is indicative and points at the Guarantees panel', () => {
    const html = render({ ...clusterSnapshot(), fairness_bound: { value: 300, label: 'DLPM bound' } });
    expect(html).toMatch(/class="cs-band-note">Indicative: [^<]*Guarantees panel checks each pair/);
  });
  test('without a bound the spread is still given, with why nothing bounds it, and the same note', () => {
    // (it takes about the room of the gauge, so a tour flipping from LPM to DLPM keeps little empty)
    const html = render(clusterSnapshot());
    expect(html).toContain('data-bound="none"');
    expect(html).toMatch(/leader − last client = 400: no fairness theorem covers this run/);
    expect(html).toContain('cs-band-note');
  });
});
