/**
 * Golden share links, one per past format version (#12.5, #13.5): links made by earlier Fairgrounds
 * must keep opening, migrated to the current format. Each link below was produced by the encoder of its
 * version (format 1: the codec before the selection was shared) and is pinned here as text.
 */
import { describe, expect, it } from 'vitest';
import { decodeShare, encodeShare, SHARE_VERSION, type SharedState } from '../../../src/ui/share/codec';

const V1_DRR =
  '#s=1.fY_NagMxDIRfRejshU1yCOjW0kvfYSGoa0FMd2XHP4Vl8buH2NBCCL2JkWZG345pFuXoPBL-SEzOK8FhUuVVCD425dXDV4kpTxr84uaNJgXo42VeOCVJTQIYYO-2NwO3wprLSnAY69P2_XnrQ08YQPRWpAjB7iwBjwZaQ0ucfcoEp9ovgw8Ee50UDYaFt6uwRToZXHjzJSPtmK-yChJajt9oUKzLPiL9ERtMQcQiHav5VT_twxLj0KAf6Q0VCV8w_0f8kvc49pdT6z3XOw';
const V1_COMPARE_EMBED =
  '#s=1.HctNCoMwEAbQq8i3DqV2OdAbtNB9dTEmgwYmPyS6kJC7F_v2r6FaiVx8AiFyEBpsyFOsIo6GcYowyMrnJuxA4-NuoHymYwe1bmBTyFwE1FBlr6Avqt3EHSrllpN6ez41B8xXW0RBeH3e6AYSFnHXyxxF_7P4uMJA04q59x8';

describe('format 1 links (before the selection was shared)', () => {
  it('open with every field they held', async () => {
    expect(await decodeShare(V1_DRR)).toEqual({
      ok: true,
      state: {
        scenarioId: 'drr-burst',
        scenario:
          'version: 1\nname: Dynamo burst\npolicy:\n  policy_classes:\n    - {name: A, quantum: 10}\n    - {name: B, quantum: 10}\nops:\n  - enqueue: {id: a0, class: A, cost: 3}\n  - pop: {}\n',
        policy: 'policy_classes:\n  - {name: A, quantum: 10}\n  - {name: B, quantum: 20}\n',
        seed: 7,
        playhead: 3,
        layout: { theme: 'dark', editor: 'scenario', speed: 2 },
      },
    });
  });

  it('keep their comparison and embed panels', async () => {
    expect(await decodeShare(V1_COMPARE_EMBED)).toEqual({
      ok: true,
      state: {
        scenario: 'name: cmp\nseed: 1\n',
        playhead: 120,
        layout: {},
        compare: { sets: ['scheduler.policy=lpm'], label: 'LPM' },
        embed: { panels: ['ring', 'log'] },
      },
    });
  });
});

describe('the current format', () => {
  const state: SharedState = {
    scenarioId: 'drr-burst',
    scenario: 'name: x\n',
    playhead: 5,
    layout: { theme: 'light' },
    selected: 3,
    explain: true,
  };

  it(`is format ${SHARE_VERSION} and carries the selected decision and its explanation`, async () => {
    const hash = await encodeShare(state);
    expect(hash.startsWith(`#s=${SHARE_VERSION}.`)).toBe(true);
    expect(await decodeShare(hash)).toEqual({ ok: true, state });
  });

  it('drops a selection past the playhead and says so, keeping the rest', async () => {
    const r = await decodeShare(await encodeShare({ ...state, selected: 9 }));
    expect(r).toEqual({
      ok: true,
      state: { scenarioId: 'drr-burst', scenario: 'name: x\n', playhead: 5, layout: { theme: 'light' } },
      dropped: [expect.stringMatching(/selected decision/)],
    });
  });

  it('calls a link cut short "damaged or truncated" and says nothing of it was kept', async () => {
    const hash = await encodeShare({ ...state, scenario: `name: x\n# ${'padding '.repeat(30)}` });
    for (const cut of [1, 3, 7, 20]) {
      const r = await decodeShare(hash.slice(0, hash.length - cut));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toMatch(/damaged or truncated/);
        expect(r.reason).toMatch(/nothing of it could be kept/);
      }
    }
  });
});
