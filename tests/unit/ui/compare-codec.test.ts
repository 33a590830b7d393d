import { describe, expect, it } from 'vitest';
import {
  contributeToShare,
  decodeShare,
  deflate,
  encodeShare,
  MAX_COMPARE_SETS,
  type SharedState,
  toBase64Url,
} from '../../../src/ui/share/codec';

const base: SharedState = {
  scenarioId: 'default',
  scenario: 'version: 1\nname: x\nseed: 7\n',
  seed: 7,
  playhead: 120,
  layout: { theme: 'light', editor: 'policy', speed: 4 },
};

async function link(json: unknown): Promise<string> {
  const bytes = await deflate(new TextEncoder().encode(JSON.stringify(json)));
  return `#s=1.${toBase64Url(bytes)}`;
}

describe('share links with a comparison', () => {
  it('round-trip compare settings (overrides, label, policy, full copy)', async () => {
    const state: SharedState = {
      ...base,
      compare: {
        sets: ['scheduler.policy=lpm', 'router.routing=round-robin'],
        label: 'lpm, round robin',
        policy: 'policy_classes: []\n',
      },
    };
    expect(await decodeShare(await encodeShare(state))).toEqual({ ok: true, state });
    const copy: SharedState = { ...base, compare: { scenario: 'version: 1\nname: y\n' } };
    expect(await decodeShare(await encodeShare(copy))).toEqual({ ok: true, state: copy });
  });

  it("carry run B's own playhead once B has played on past A's end, and refuse a malformed one (first-time user)", async () => {
    const late: SharedState = { ...base, compare: { sets: ['scheduler.policy=fcfs'], playhead: 10_164 } };
    expect(await decodeShare(await encodeShare(late))).toEqual({ ok: true, state: late });
    for (const playhead of [-1, 1.5, '12'])
      expect(await decodeShare(await link({ ...base, compare: { playhead } }))).toEqual({
        ok: false,
        reason: "the link has a malformed comparison (run B's playhead)",
      });
  });

  it('still open links made before compare existed (format 1 without the field)', async () => {
    // The JSON exactly as an older Fairground wrote it: no `compare` key.
    const old = {
      scenarioId: 'default',
      scenario: base.scenario,
      seed: 7,
      playhead: 120,
      layout: { theme: 'light', editor: 'policy', speed: 4 },
    };
    const r = await decodeShare(await link(old));
    expect(r).toEqual({ ok: true, state: base });
    expect(r.ok && 'compare' in r.state).toBe(false);
  });

  it('reject malformed comparisons with a reason', async () => {
    const cases: [unknown, string][] = [
      ['lpm', 'malformed comparison'],
      [{ sets: 'scheduler.policy=lpm' }, 'overrides'],
      [{ sets: [1] }, 'overrides'],
      [{ sets: new Array(MAX_COMPARE_SETS + 1).fill('a=1') }, 'overrides'],
      [{ scenario: '' }, 'scenario B'],
      [{ policy: 3 }, 'policy B'],
      [{ label: 'x'.repeat(500) }, 'label'],
    ];
    for (const [compare, reason] of cases) {
      const r = await decodeShare(await link({ ...base, compare }));
      expect(r.ok, JSON.stringify(compare)).toBe(false);
      if (!r.ok) expect(r.reason).toContain(reason);
    }
  });

  it('drop unknown keys inside the comparison', async () => {
    const r = await decodeShare(await link({ ...base, compare: { sets: ['a=1'], run: 'code' } }));
    expect(r).toEqual({ ok: true, state: { ...base, compare: { sets: ['a=1'] } } });
  });

  it('take a contributed comparison unless the state has its own', async () => {
    const remove = contributeToShare(() => ({ compare: { sets: ['scheduler.policy=vtc'] } }));
    try {
      const r = await decodeShare(await encodeShare(base));
      expect(r.ok && r.state.compare).toEqual({ sets: ['scheduler.policy=vtc'] });
      const own = await decodeShare(await encodeShare({ ...base, compare: { label: 'mine' } }));
      expect(own.ok && own.state.compare).toEqual({ label: 'mine' });
    } finally {
      remove();
    }
    const after = await decodeShare(await encodeShare(base));
    expect(after.ok && after.state.compare).toBeUndefined();
  });
});
