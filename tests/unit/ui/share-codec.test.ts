import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeShare,
  deflate,
  encodeShare,
  fromBase64Url,
  MAX_JSON_BYTES,
  MAX_LINK_CHARS,
  SHARE_VERSION,
  type SharedState,
  ShareTooLarge,
  toBase64Url,
} from '../../../src/ui/share/codec';

const state: SharedState = {
  scenarioId: 'drr-burst',
  scenario: 'version: 1\nname: Dynamo burst\nops:\n  - pop: {}\n',
  policy: 'policy_classes:\n  - {name: A, quantum: 10}\n',
  seed: 42,
  playhead: 16,
  layout: { theme: 'dark', editor: 'policy', speed: 3 },
};

/** Text that does not compress: a fixed linear congruential sequence of letters. */
function noise(n: number): string {
  let x = 12345;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return out;
}

async function payloadOf(json: string): Promise<string> {
  return toBase64Url(await deflate(new TextEncoder().encode(json)));
}

describe('base64url', () => {
  it('matches hand-checked vectors', () => {
    const b = (s: string) => new TextEncoder().encode(s);
    expect(toBase64Url(b(''))).toBe('');
    expect(toBase64Url(b('f'))).toBe('Zg');
    expect(toBase64Url(b('fo'))).toBe('Zm8');
    expect(toBase64Url(b('foo'))).toBe('Zm9v');
    expect(toBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(fromBase64Url('Zm9v')).toEqual(b('foo'));
    expect(fromBase64Url('Z')).toBeNull();
    expect(fromBase64Url('Zm9v+')).toBeNull();
  });
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
      }),
      { numRuns: 100 },
    );
  });
});

describe('share links', () => {
  it('round-trip the whole state', async () => {
    const hash = await encodeShare(state);
    expect(hash.startsWith(`#s=${SHARE_VERSION}.`)).toBe(true);
    expect(await decodeShare(hash)).toEqual({ ok: true, state });
  });

  it('round-trip arbitrary texts (unicode included)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.nat({ max: 100000 }), async (text, playhead) => {
        const s: SharedState = { scenario: `name: x\n${text}`, playhead, layout: {} };
        expect(await decodeShare(await encodeShare(s))).toEqual({ ok: true, state: s });
      }),
      { numRuns: 40 },
    );
  });

  it('are never made too large to open: the texts, the JSON and the link are checked', async () => {
    // a 50 MB paste compresses to a link decodeShare refuses (it unpacks past 1 MB); the page spent
    // seconds encoding it and put a 232,661-character address in the bar
    const cases: [SharedState, RegExp][] = [
      [{ ...state, policy: 'x'.repeat(50_000_000) }, /its texts are 50\.0 million characters/],
      // just under the text limit, but JSON escapes each newline: past 1 MB once stringified
      [{ ...state, scenario: '\n'.repeat(MAX_JSON_BYTES / 2 + 10) }, /it holds 1\.\d million bytes/],
      // random text hardly compresses: under 1 MB, but a link past 64k characters
      [{ ...state, scenario: noise(200_000) }, /its link would be [\d\u202f]+ characters long/],
    ];
    for (const [s, why] of cases) {
      const err = await encodeShare(s).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ShareTooLarge);
      expect((err as ShareTooLarge).reason).toMatch(why);
      expect((err as ShareTooLarge).message).toMatch(
        /cannot be shared as a link.*Download the texts, beside this message/,
      );
    }
    // at the edge that fits, a link is made and opens
    const fits = { ...state, scenario: noise(40_000) };
    expect(await decodeShare(await encodeShare(fits))).toEqual({ ok: true, state: fits });
  });

  it('carry the dropped traces’ sizes, in a fixed order; a malformed value is left out, not fatal', async () => {
    const s: SharedState = { ...state, traceBytes: { 'b.csv': 20, 'a.jsonl': 10 } };
    const back = await decodeShare(await encodeShare(s));
    expect(back.ok && back.state.traceBytes).toEqual({ 'a.jsonl': 10, 'b.csv': 20 });
    expect(back.ok && Object.keys(back.state.traceBytes ?? {})).toEqual(['a.jsonl', 'b.csv']);
    for (const bad of [{ 'a.jsonl': -1 }, { 'a.jsonl': 'x' }, ['a.jsonl'], 3]) {
      const payload = await payloadOf(
        JSON.stringify({ scenario: 'name: x', playhead: 0, layout: {}, traceBytes: bad }),
      );
      const res = await decodeShare(`#s=${SHARE_VERSION}.${payload}`);
      expect(res.ok).toBe(true);
      expect(res.ok && res.state.traceBytes).toBeUndefined();
    }
  });

  // #15: a malformed size record was dropped without a word, and a run on a copy of another size
  // opened as "the run as it was shared". The decoded state now says which part is unreadable.
  it('say which of the dropped traces’ sizes are unreadable, quoting each value briefly', async () => {
    const open = async (traceBytes: unknown) => {
      const payload = await payloadOf(
        JSON.stringify({ scenario: 'name: x', playhead: 0, layout: {}, traceBytes }),
      );
      const res = await decodeShare(`#s=${SHARE_VERSION}.${payload}`);
      if (!res.ok) throw new Error(res.reason);
      return res.state;
    };
    const huge = 2 ** 60;
    for (const [value, words] of [
      [-1, '-1'],
      [12.5, '12.5'],
      ['x', '"x"'],
      [['a'], 'a list'],
      [null, 'null'],
      [huge, String(huge)],
      [{ n: 1 }, 'an object'],
    ] as const) {
      const s = await open({ 'a.jsonl': value, 'b.csv': 20 });
      expect(s.traceBytes, JSON.stringify(value)).toEqual({ 'b.csv': 20 });
      expect(s.unreadableTraceBytes?.entries?.get('a.jsonl')).toBe(words);
      expect(s.unreadableTraceBytes?.whole).toBeUndefined();
    }
    for (const [value, words] of [
      [-1, '-1'],
      ['x', '"x"'],
      [['a.jsonl', 3], 'a list'],
      [null, 'null'],
      [true, 'true'],
    ] as const) {
      const s = await open(value);
      expect(s.traceBytes).toBeUndefined();
      expect(s.unreadableTraceBytes?.whole, JSON.stringify(value)).toBe(words);
    }
    // a long string is quoted briefly
    const s = await open({ 'a.jsonl': 'y'.repeat(5000) });
    const words = s.unreadableTraceBytes?.entries?.get('a.jsonl') ?? '';
    expect(words.match(/y+/g)?.every((m) => m.length <= 40)).toBe(true);
    expect(words.length).toBeLessThan(80);
    // a good record, or none: nothing unreadable
    expect((await open({ 'a.jsonl': 3 })).unreadableTraceBytes).toBeUndefined();
    expect((await open(undefined)).unreadableTraceBytes).toBeUndefined();
    // a name no trace.file can have (over 4,096 characters) is about no file: left out, as before
    expect((await open({ ['n'.repeat(5000)]: -1 })).unreadableTraceBytes).toBeUndefined();
  });

  it('compress a typical policy well', async () => {
    const long = state.scenario.repeat(20);
    const hash = await encodeShare({ ...state, scenario: long });
    expect(hash.length).toBeLessThan(long.length / 3);
  });

  it('reject malformed links with a reason', async () => {
    for (const bad of [
      '#s=',
      '#s=1',
      '#s=1.',
      '#s=x.abc',
      '#s=1.@@@@',
      '#s=1.Zm9v',
      '#x=1.abc',
      '#s=-1.abc',
    ]) {
      const r = await decodeShare(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.reason.length).toBeGreaterThan(5);
    }
  });

  it('reject a truncated link', async () => {
    const hash = await encodeShare({ ...state, scenario: `${state.scenario}\n# ${'padding '.repeat(40)}` });
    const r = await decodeShare(hash.slice(0, hash.length - 12));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/damaged|truncated|malformed/);
  });

  it('reject an oversized link before decoding it', async () => {
    const r = await decodeShare(`#s=1.${'A'.repeat(MAX_LINK_CHARS + 1)}`);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/too long/) });
  });

  it('reject a deflate bomb (inflates past the limit)', async () => {
    const huge = JSON.stringify({ scenario: 'a'.repeat(3_000_000), playhead: 0, layout: {} });
    const payload = await payloadOf(huge);
    expect(payload.length).toBeLessThan(MAX_LINK_CHARS);
    const r = await decodeShare(`#s=1.${payload}`);
    expect(r.ok).toBe(false);
    // said as what it is, not as a damaged link (a user would look for a copying mistake)
    if (!r.ok) expect(r.reason).toMatch(/^the link is too large: it unpacks to more than 1 MB/);
  });

  it('reject a future version with a clear message', async () => {
    const good = await encodeShare(state);
    const r = await decodeShare(good.replace(`#s=${SHARE_VERSION}.`, `#s=${SHARE_VERSION + 1}.`));
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/newer Fairground/) });
  });

  it('reject well-formed JSON of the wrong shape', async () => {
    for (const json of [
      '[]',
      '"x"',
      '{"scenario":1,"playhead":0}',
      '{"scenario":"a","playhead":-1}',
      '{"scenario":"a","playhead":1.5}',
    ]) {
      const r = await decodeShare(`#s=1.${await payloadOf(json)}`);
      expect(r.ok, json).toBe(false);
    }
  });

  it('drop unknown keys and bad layout values', async () => {
    const json = JSON.stringify({
      scenario: 'a: 1',
      playhead: 2,
      evil: '<script>',
      layout: { theme: 'neon', editor: 'policy' },
    });
    const r = await decodeShare(`#s=1.${await payloadOf(json)}`);
    expect(r).toEqual({ ok: true, state: { scenario: 'a: 1', playhead: 2, layout: { editor: 'policy' } } });
  });
});
