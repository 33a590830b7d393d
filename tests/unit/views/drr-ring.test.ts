import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ArbitrationSession } from '../../../src/core/drr/script-runner';
import type { DrrPopRecord } from '../../../src/core/drr/types';
import {
  classState,
  DrrRing,
  ringSegments,
  roundsNeeded,
  visitSlots,
  VISIT_STAGGER_S,
  MAX_REPLAY_S,
  centerLines,
  visitText,
  ringKey,
  segmentLabelOrKey,
  shortCounts,
  noArbitrationText,
  nameParts,
} from '../../../src/ui/views/DrrRing';
import type { DrrClassModel } from '../../../src/ui/views/read';
import { SandboxSession } from '../../../src/worker/arbitration-session';
import type { SessionSnapshot } from '../../../src/worker/session';
import {
  bulkScript,
  burstScript,
  clusterSnapshot,
  enqueue,
  policyOf,
  pop,
  pretty,
  sessionSnapshot,
} from './fixtures';

function lastRecord(s: SessionSnapshot): DrrPopRecord {
  const rec = s.drr?.last_pop?.record;
  if (!rec) throw new Error('no pop yet');
  return rec;
}

/** Markup with the narrow no-break spaces of digit groups shown as plain spaces. */
const render = (snapshot: SessionSnapshot | null, highlight?: { class?: string }) =>
  renderToStaticMarkup(h(DrrRing, { snapshot, highlight })).replaceAll('\u202f', ' ');

/** Deficit per class and the cursor/carry as the DOM shows them (data attributes and text). */
function readRing(html: string) {
  const deficits: Record<string, number> = {};
  for (const m of html.matchAll(/<tr class="drr-row" data-class="([^"]+)" data-deficit="(-?\d+)"/g))
    deficits[m[1]] = Number(m[2]);
  const cursor = /aria-label="DRR ring" data-cursor="([^"]*)"/.exec(html)?.[1];
  const carry = /data-carry="([^"]*)" data-variant/.exec(html)?.[1];
  return { deficits, cursor, carry };
}

describe('DrrRing on the docs burst (A, B quantum 10, four cost-3 requests each)', () => {
  // Hand-checked from the V2 pop_next: A pays 3 per pop from one quantum, then B, then the leftovers.
  const expected = [
    { A: 7, B: 0, cursor: 'B', carry: 'A' },
    { A: 4, B: 0, cursor: 'B', carry: 'A' },
    { A: 1, B: 0, cursor: 'B', carry: 'A' },
    { A: 1, B: 7, cursor: 'A', carry: 'B' },
    { A: 1, B: 4, cursor: 'A', carry: 'B' },
    { A: 1, B: 1, cursor: 'A', carry: 'B' },
    { A: 0, B: 1, cursor: 'B', carry: '' },
    { A: 0, B: 0, cursor: 'A', carry: '' },
  ];

  test.each(expected.map((e, i) => [i + 1, e] as const))(
    'after pop %i the DOM shows the deficits and cursor',
    (pops, e) => {
      const html = render(sessionSnapshot(burstScript(), 8 + pops));
      expect(readRing(html)).toEqual({ deficits: { A: e.A, B: e.B }, cursor: e.cursor, carry: e.carry });
      // The numbers are also readable text: "deficit / quantum".
      expect(html).toContain(
        `<span class="drr-deficit" data-end="${e.A}">${e.A}</span> <span class="drr-q">/ 10</span>`,
      );
      expect(html).toContain(
        `<span class="drr-deficit" data-end="${e.B}">${e.B}</span> <span class="drr-q">/ 10</span>`,
      );
      // the stable hooks: each class's group holds its bar (width ∝ deficit), quantum tick and track
      for (const [cls, d] of [
        ['A', e.A],
        ['B', e.B],
      ] as const)
        expect(html).toMatch(
          new RegExp(
            `<tbody[^>]* data-class="${cls}">.*?<div class="drr-track"[^>]*><div class="drr-bar" style="width:[\\d.]+%[^"]*" data-deficit="${d}"`,
          ),
        );
    },
  );

  test('every step of the script: the view shows exactly the core snapshot', () => {
    const session = new ArbitrationSession(burstScript());
    const sandbox = new SandboxSession(burstScript(), 'burst', '');
    for (let step = 0; step <= 17; step++) {
      const snap = JSON.parse(JSON.stringify(sandbox.snapshot())) as SessionSnapshot;
      const core = session.snapshot();
      const shown = readRing(render(snap));
      expect(shown.cursor).toBe(core.cursor ?? '');
      expect(shown.carry).toBe(core.carry ?? '');
      expect(shown.deficits).toEqual(Object.fromEntries(core.classes.map((c) => [c.name, c.deficit])));
      session.step();
      sandbox.step();
    }
  });

  test('visual regression: the ring after 8 pops', async () => {
    await expect(pretty(render(sessionSnapshot(burstScript(), 16)))).toMatchFileSnapshot(
      '__snapshots__/drr-ring-burst-after-8-pops.html',
    );
  });

  test('class names in the deficit table break before an underscore, after a hyphen (finding 12)', () => {
    expect(nameParts('interactive_cached')).toEqual(['interactive', '_cached']);
    expect(nameParts('bulk_un_cached')).toEqual(['bulk', '_un', '_cached']);
    expect(nameParts('latency-tier')).toEqual(['latency-', 'tier']);
    expect(nameParts('_x')).toEqual(['_x']);
    expect(nameParts('A')).toEqual(['A']);
  });

  test('visual regression: the ring after 3 pops (carry A, cursor B)', async () => {
    await expect(pretty(render(sessionSnapshot(burstScript(), 11)))).toMatchFileSnapshot(
      '__snapshots__/drr-ring-burst-after-3-pops.html',
    );
  });

  test('the last decision is listed visit by visit; the carry visit pays from saved credit', () => {
    const html = render(sessionSnapshot(burstScript(), 10));
    expect(html).toContain('data-outcome="affordable" data-class="A"');
    expect(html).toContain('A: carried deficit 7 pays for a1 (cost 3), keeps 4');
    // The chosen class flashes; the pointer turns to the cursor (B is the right half: 270°).
    expect(html).toContain('class="drr-granted-flash"');
    expect(html).toContain('transform:rotate(270deg)');
  });

  test('before any pop: no arbitration yet, with a hint', () => {
    const html = render(sessionSnapshot(burstScript(), 8));
    expect(html).toContain('No arbitration yet');
    expect(readRing(html)).toEqual({ deficits: { A: 0, B: 0 }, cursor: 'A', carry: '' });
  });
});

describe('DrrRing before the first pop of a cluster run', () => {
  const beforeFirstPop = (release: 'v1.5' | 'v1.6'): SessionSnapshot => {
    const snap = clusterSnapshot();
    if (!snap.drr) throw new Error('fixture has a policy queue');
    return { ...snap, drr: { ...snap.drr, last_pop: null, release } };
  };
  test('v1.6 (the default): every arrival passes a DRR pop, the text says so', () => {
    const html = render(beforeFirstPop('v1.6'));
    expect(html).toContain(noArbitrationText(false, 'v1.6'));
    expect(html).toContain(
      'every arrival is stored in its class queue and drained at once through a DRR pop',
    );
    expect(html).not.toContain('prefill_busy_threshold');
  });
  test('v1.5: requests reach the ring only once the workers are busy', () => {
    const html = render(beforeFirstPop('v1.5'));
    expect(html).toContain('under Dynamo v1.5 requests go straight to a worker while their pool has room');
    expect(html).toContain('prefill_busy_threshold');
  });
  test('the snapshot carries the modelled release', () => {
    expect(sessionSnapshot(burstScript(), 8).drr?.release).toBe('v1.6');
  });
});

describe('DrrRing decision details', () => {
  test('bulk credit: scan, then the bulk step with its rounds, then the final scan', () => {
    const html = render(sessionSnapshot(bulkScript(), 4));
    const outcomes = [...html.matchAll(/data-outcome="([a-z]+)"/g)].map((m) => m[1]);
    expect(outcomes).toEqual(['unaffordable', 'unaffordable', 'bulk', 'short', 'chosen']);
    expect(html).toContain('4 virtual round');
    expect(html).toContain(
      'latency: after the bulk rounds deficit 10 000 pays for l0 (cost 9 000), 1 000 left, reset to 0: its queue is now empty',
    );
    expect(html).toContain('standard: earns its quantum 0 → 1 000, still short of s0 (cost 7 000)');
  });

  test('a blocked class is hatched and says so; it keeps its deficit', () => {
    const script = {
      ...burstScript(),
      ops: [enqueue('a0', 'A', 3), enqueue('b0', 'B', 3), pop(1, ['A'])],
    };
    const html = render(sessionSnapshot(script, 3));
    expect(html).toMatch(
      /data-class="A" data-deficit="0" data-quantum="10" data-queued="1" data-head-cost="3" data-state="blocked"/,
    );
    expect(html).toContain('class="drr-blocked-overlay"');
    expect(html).toContain('A: head not dispatchable (blocked), keeps deficit 0, earns nothing');
  });

  test('cluster snapshot: DRR state under `drr`, last pop from the recent decisions', () => {
    const html = render(clusterSnapshot());
    expect(readRing(html)).toEqual({
      deficits: { standard: 5000, latency: 0 },
      cursor: 'latency',
      carry: '',
    });
    expect(html).toContain('no head affordable after one round: 4 virtual round(s) granted in bulk');
    expect(html).not.toContain('t=3.900 s');
    expect(html).toContain('at t = 3.9 s');
  });

  test('the highlighted class is marked on the ring and in the table', () => {
    const html = render(clusterSnapshot(), { class: 'standard' });
    expect(html).toContain('class="drr-seg state-short selected" data-class="standard"');
    expect(html).toMatch(/<tbody class="state-short selected" data-class="standard">/);
  });

  test('empty states: no snapshot, a cluster without a policy, a policy without classes', () => {
    const { drr, ...noPolicy } = clusterSnapshot();
    for (const snap of [null, noPolicy]) {
      const html = render(snap);
      expect(html).toContain('aria-label="DRR ring"');
      expect(html).toContain('This scenario has no router policy: add <code>router.policy</code>');
    }
    if (!drr) throw new Error('the fixture has a policy queue');
    const noClasses = { ...drr, cursor: null, carry: null, classes: [], queues: [], last_pop: null };
    expect(render({ ...noPolicy, drr: noClasses })).toContain('no classes');
  });
});

describe('DrrRing helpers', () => {
  const cls = (o: Partial<DrrClassModel>): DrrClassModel => ({
    name: 'x',
    quantum: 10,
    deficit: 0,
    queued: 1,
    head_cost: 3,
    blocked: false,
    ...o,
  });

  test('class state and rounds still needed', () => {
    expect(classState(cls({ queued: 0 }))).toBe('empty');
    expect(classState(cls({ blocked: true }))).toBe('blocked');
    expect(classState(cls({ deficit: 3 }))).toBe('affordable');
    expect(classState(cls({ deficit: 2 }))).toBe('short');
    expect(roundsNeeded(cls({ deficit: 2, head_cost: 23 }))).toBe(3);
    expect(roundsNeeded(cls({ deficit: 5, head_cost: 3 }))).toBe(0);
    expect(roundsNeeded(cls({ head_cost: null }))).toBeNull();
  });

  test('segments cover the ring clockwise, ∝ quantum with a floor', () => {
    const segs = ringSegments([cls({ name: 'a', quantum: 1 }), cls({ name: 'b', quantum: 99 })]);
    expect(segs.map((s) => s.cls.name)).toEqual(['a', 'b']);
    expect(segs[0].start).toBe(0);
    expect(segs[1].end).toBeCloseTo(2 * Math.PI, 9);
    // 1 % of the quantum would be invisible: the floor gives it 8 / 108 of the ring.
    expect((segs[0].end - segs[0].start) / (2 * Math.PI)).toBeCloseTo(0.08 / 1.08, 1);
    expect(segs[1].end - segs[1].start).toBeGreaterThan(segs[0].end - segs[0].start);
  });

  test('replay slots put the bulk step right before the final scan', () => {
    const rec = lastRecord(sessionSnapshot(bulkScript(), 4));
    // five slots: the replay is squeezed into MAX_REPLAY_S
    expect(visitSlots(rec)).toEqual({ visits: [0, 1, 3, 4], bulk: 2, stagger: MAX_REPLAY_S / 4 });
  });

  test('a long scan replays faster: the verdict starts within MAX_REPLAY_S', () => {
    const rec = lastRecord(sessionSnapshot(bulkScript(), 4));
    rec.visits = Array.from({ length: 12 }, () => rec.visits[0]);
    const slots = visitSlots(rec);
    const last = Math.max(...slots.visits, slots.bulk ?? 0);
    expect(last * slots.stagger).toBeCloseTo(MAX_REPLAY_S, 9);
    expect(slots.stagger).toBeLessThan(VISIT_STAGGER_S);
  });

  test('the centre names the next class on one line, or two split at an underscore', () => {
    expect(centerLines('A')).toEqual(['A']);
    expect(centerLines('interactive_cached')).toEqual(['interactive', '_cached']);
    expect(centerLines('latency_uncached')).toEqual(['latency', '_uncached']);
    expect(centerLines('interactive-cached')).toEqual(['interactive-', 'cached']);
    expect(centerLines('interactive cached')).toEqual(['interactive', 'cached']);
    expect(centerLines('averyveryverylongname')).toEqual(['averyveryve…']);
  });

  test('granted visits show the credit before paying', () => {
    const s = sessionSnapshot(
      {
        ...burstScript(),
        policy: policyOf([{ name: 'A', quantum: 10 }]),
        ops: [enqueue('a0', 'A', 3), pop(1)],
      },
      2,
    );
    const rec = lastRecord(s);
    // a0 was A's only request: the 7 the cost leaves resets to 0, and the line says why
    expect(visitText(rec.visits[0], 10)).toBe(
      'A: earns its quantum 0 → 10, pays for a0 (cost 3), 7 left, reset to 0: its queue is now empty',
    );
  });

  test('a take that leaves more queued keeps what the cost leaves', () => {
    const rec = lastRecord(sessionSnapshot(burstScript(), 9));
    expect(visitText(rec.visits[0], 10)).toBe('A: earns its quantum 0 → 10, pays for a0 (cost 3), keeps 7');
  });
});

describe('a ring name that fits nowhere gets its key (#13)', () => {
  const narrow = { start: -0.25, end: 0.25, mid: 0 };
  test('draws the key in the name’s place, with the count when both fit', () => {
    const long = segmentLabelOrKey(narrow, 'interactive_uncached_priority_lane', ringKey(3), '12');
    expect(long.keyed).toBe(true);
    expect(long.fit.kind === 'two' || long.fit.kind === 'arc').toBe(true);
    expect(ringKey(3)).toBe('#4');
  });
  test('a key keeps its count: along the inner arc, without the blocked mark when only that fits', () => {
    const segs = ringSegments([
      { name: 'a', quantum: 4000 },
      { name: 'b', quantum: 4000 },
      { name: 'c', quantum: 4000 },
      { name: 'overnight_reindexing_backfill', quantum: 10 },
    ] as never);
    const small = segs[3];
    for (const [count, plain, drawn] of [
      ['2', '2', '2'],
      ['⊘ 83', '83', '83'],
      ['⊘ 183', '183', '183'],
    ] as const) {
      const l = segmentLabelOrKey(small, 'overnight_reindexing_backfill', '#4', count, plain);
      expect(l.keyed).toBe(true);
      expect(l.countText).toBe(drawn);
      expect(l.fit.kind === 'arc' && l.fit.count).toBe(true);
    }
  });
  test('keeps a name that fits, level or along the arc', () => {
    const wide = { start: 0, end: Math.PI, mid: Math.PI / 2 };
    expect(segmentLabelOrKey(wide, 'A', '#1', '3')).toEqual({
      fit: { kind: 'two', name: true, count: true },
      keyed: false,
      countText: '3',
    });
    expect(segmentLabelOrKey(narrow, 'ab', '#1', null).keyed).toBe(false);
  });
});

describe('a four-digit count in the narrowest segment (#13)', () => {
  const segs = ringSegments([
    { name: 'a', quantum: 4000 },
    { name: 'b', quantum: 4000 },
    { name: 'c', quantum: 4000 },
    { name: 'overnight_reindexing_backfill', quantum: 10 },
  ] as never);
  test('is drawn beside the key, shortened (2k) where the whole number does not fit', () => {
    for (const [count, plain, drawn] of [
      ['1834', '1834', '2k'],
      ['⊘ 1834', '1834', '2k'],
      ['⊘ 12345', '12345', '12k'],
    ] as const) {
      const l = segmentLabelOrKey(segs[3], 'overnight_reindexing_backfill', '#4', count, plain);
      expect(l.keyed, count).toBe(true);
      expect(l.countText, count).toBe(drawn);
      expect(l.shortened, count).toBe(true);
      expect(l.fit.kind === 'arc' && l.fit.count, count).toBe(true);
    }
    // three digits still fit whole
    expect(segmentLabelOrKey(segs[3], 'overnight_reindexing_backfill', '#4', '999').countText).toBe('999');
  });
  test('shortCounts: the most precise form first, rounded to the nearest', () => {
    expect([999, 1000, 1834, 9_960, 12_345, 999_499, 999_999, 1_250_000].map(shortCounts)).toEqual([
      ['999'],
      ['1k'],
      ['1.8k', '2k'],
      ['10k'],
      ['12k'],
      ['999k'],
      ['1M'],
      ['1.3M', '1M'],
    ]);
  });
});
