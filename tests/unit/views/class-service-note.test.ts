/**
 * #13: the Class service panel said "… at least half of the 0 s during which any class queued" while
 * the ring showed a queued class. Real: the queued time is counted between events, so at the instant
 * the first class queue forms (default.yaml, decision 99, t ≈ 1.47 s) none has passed yet. The panel
 * now says that a queue formed at this instant, instead of a 0 s that reads as "nothing queued".
 */
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { Simulation } from '../../../src/core/sim/simulation';
import { buildSnapshot } from '../../../src/core/sim/snapshot';
import { ClassService } from '../../../src/ui/views/ClassService';
import type { SimSnapshot } from '../../../src/worker/session';
import { loadScenario } from '../shipped-scenarios';

const render = (s: SimSnapshot) =>
  renderToStaticMarkup(h(ClassService, { snapshot: s, highlight: null })).replace(/<!-- -->/g, '');

describe('Class service: the queued time behind the dashed prediction', () => {
  test('default.yaml: the moment the first class queue forms, and a moment later', () => {
    const s = loadScenario('default.yaml');
    const sim = new Simulation({ ...s, duration_s: 10 }, { record: true });
    let at: SimSnapshot | null = null;
    let later: SimSnapshot | null = null;
    for (let i = 0; i < 5000 && later === null; i++) {
      if (!sim.stepDecision()) break;
      const snap = buildSnapshot(sim);
      const queued = (snap.drr?.classes ?? []).reduce((n, c) => n + c.queued, 0);
      if (at === null && queued > 0) at = snap;
      else if (at !== null && (snap.class_service?.saturated_s ?? 0) > 0) later = snap;
    }
    if (!at || !later) throw new Error('default.yaml formed no class queue in 10 s');
    // the ring shows a queued class while no queued time has passed: the case the issue saw
    expect(at.class_service?.saturated_s).toBe(0);
    const now = render(at);
    expect(now).toContain('A class queue formed at this instant');
    expect(now).not.toMatch(/\b0 s\b/);
    const next = render(later);
    expect(next).toMatch(/some class queued for [\d.]+ (s|ms) so far\)/);
    expect(next).not.toContain('formed at this instant');
  });
});
