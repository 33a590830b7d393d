import { describe, expect, it } from 'vitest';
import {
  decodeShare,
  encodeShare,
  SHARE_VERSION,
  type SharedState,
  toBase64Url,
  deflate,
} from '../../../src/ui/share/codec';

const base: SharedState = { scenario: 'name: x\n', playhead: 12, layout: { theme: 'light' } };

async function payloadOf(json: string): Promise<string> {
  return toBase64Url(await deflate(new TextEncoder().encode(json)));
}

describe('share links carrying embed panels (format 1)', () => {
  it('round-trip the panels, known names only, in layout order', async () => {
    const hash = await encodeShare({ ...base, embed: { panels: ['log', 'bogus', 'ring', 'ring'] } });
    expect(hash.startsWith(`#s=${SHARE_VERSION}.`)).toBe(true);
    const r = await decodeShare(hash);
    expect(r).toEqual({ ok: true, state: { ...base, embed: { panels: ['ring', 'log'] } } });
  });
  it('leave embed out when no panel name is known', async () => {
    const r = await decodeShare(await encodeShare({ ...base, embed: { panels: ['nope'] } }));
    expect(r.ok && r.state.embed).toBe(undefined);
  });
  it('ignore a malformed embed value instead of refusing the link', async () => {
    for (const embed of [42, 'ring', { panels: 'ring' }, [], { panels: [1, null] }]) {
      const json = JSON.stringify({ ...base, embed });
      const r = await decodeShare(`#s=1.${await payloadOf(json)}`);
      expect(r).toEqual({ ok: true, state: base });
    }
  });
  it('still open a link made before embed existed (fixed golden payload)', async () => {
    // {"scenario":"name: old\n","playhead":3,"layout":{"theme":"dark"}}, deflate-raw, base64url.
    const r = await decodeShare(
      '#s=1.BcExDoAgDAXQq5g_s7n1LC4_tglGaA3iQAh3972J9zRnuwICZzXZoujhSHgKRzYqZE8oHPF1yETPVg0CZbux1g8',
    );
    expect(r).toEqual({
      ok: true,
      state: { scenario: 'name: old\n', playhead: 3, layout: { theme: 'dark' } },
    });
  });
});
