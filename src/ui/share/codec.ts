/**
 * Share links: the whole state needed to reproduce a view, in the URL fragment as `#s=<version>.<payload>`.
 * The payload is the JSON of a `SharedState`, compressed with raw deflate (CompressionStream) and
 * written in base64url. A zod schema per format version checks what a link holds (a link is untrusted
 * input); links of a past version are read with their own schema and migrated forward, so old links
 * keep working (tests/unit/ui/share-golden.test.ts holds one real link per past version). Decoding
 * never throws: a bad link gives a reason a person can read, and says what of it was kept. Pure (no
 * DOM), so Node tests it directly.
 *
 * Versions: 1 — scenario, policy, seed, playhead, layout, compare, embed. 2 — adds the selected
 * decision and whether its explanation is open (`selected`, `explain`); within format 2, run B's own
 * playhead (`compare.playhead`) once B has played on past A's end.
 */
import { z } from 'zod';
import { cleanPanels } from '../embed/panels';
import { fmtCount } from '../views/format';

export const SHARE_VERSION = 2;
/** Longest fragment accepted (characters after `#s=`). */
export const MAX_LINK_CHARS = 64 * 1024;
/** Longest JSON a payload may inflate to (guards against deflate bombs). */
export const MAX_JSON_BYTES = 1024 * 1024;

export interface SharedLayout {
  theme?: 'light' | 'dark';
  /** Which editor tab is open. */
  editor?: 'policy' | 'scenario';
  speed?: number;
}

/**
 * Compare mode's run B (absent when not comparing). B is A's scenario with `sets` applied
 * (`key.path=value` lines), or `scenario` when the viewer edited a full copy; `policy` is B's policy
 * override text (absent = A's); `label` names B in the views.
 */
export interface SharedCompare {
  scenario?: string;
  policy?: string;
  sets?: string[];
  label?: string;
  /**
   * Run B's decisions, when B has played on past the end of run A (added within format 2). Absent:
   * B is at A's simulated time, as it follows A. A reader that ignores it opens B at A's end.
   */
  playhead?: number;
}

/** Most override lines a link's comparison may carry, and the longest label. */
export const MAX_COMPARE_SETS = 64;
export const MAX_COMPARE_LABEL = 120;

export interface SharedState {
  /** Format 2: the decision selected in the log (its seq), shown highlighted with its explanation. */
  selected?: number;
  /** Format 2: whether the explanation of the selected decision is open (default: open when selected). */
  explain?: boolean;
  /** The shipped scenario it started from, if any (informative: the text below is authoritative). */
  scenarioId?: string;
  scenario: string;
  /** Policy override text; absent = the scenario's own. */
  policy?: string;
  /** The scenario's seed (informative: it is inside the scenario text). */
  seed?: number;
  /** Decisions taken: the playhead. */
  playhead: number;
  layout: SharedLayout;
  /** Compare mode (added within format 1: links without it open as before). */
  compare?: SharedCompare;
  /**
   * Embed mode's panels (added within format 1). Used when the page is in embed mode and its query
   * names no `panels` (see ../embed/panels.ts); unknown names are dropped, a malformed value ignored.
   */
  embed?: SharedEmbed;
  /**
   * The size in bytes of each dropped trace file the run replays, by name (added within format 2):
   * the link cannot carry the file, so the receiver's copy is checked against it before the run
   * opens as "the run as it was shared". Entries that are not byte counts are left out of it and
   * named in `unreadableTraceBytes`.
   */
  traceBytes?: Record<string, number>;
  /**
   * Decoding only (never encoded): the link's `traceBytes` where it is no byte count, its values in
   * words (quoted briefly) — `whole`: the value is not sizes by file name at all; `entries`: the
   * entries that are not byte counts, by file name. A copy of a file they concern cannot be checked
   * against the sender's, so the run is not called the one shared (before, the record was dropped
   * without a word and any copy opened as "the run as it was shared").
   */
  unreadableTraceBytes?: { whole?: string; entries?: ReadonlyMap<string, string> };
}

/** The panels an embedded view shows (names from EMBED_PANELS). */
export interface SharedEmbed {
  panels: string[];
}

/**
 * A decoded link. `dropped` names parts of an otherwise good link that were damaged and left out (the
 * rest is kept); absent when everything was read.
 */
export type DecodeResult =
  | { ok: true; state: SharedState; dropped?: string[] }
  | { ok: false; reason: string };

// ---- base64url ---------------------------------------------------------------------------------------

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/** Null when the text is not base64url (wrong characters or an impossible length). */
export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? LOOKUP[c] : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

// ---- compression -------------------------------------------------------------------------------------

/** What `inflate` answers for data that would inflate past its limit (a deflate bomb, or a huge state). */
export const TOO_LARGE = 'too-large';

async function pipe(
  bytes: Uint8Array,
  stream: GenericTransformStream,
  limit: number,
): Promise<Uint8Array | typeof TOO_LARGE> {
  const writer = stream.writable.getWriter();
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

export async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  return (await pipe(bytes, new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER)) as Uint8Array;
}

/**
 * Inflates at most `limit` bytes; null when the data is corrupt or truncated, TOO_LARGE when it
 * would inflate past the limit.
 */
export async function inflate(
  bytes: Uint8Array,
  limit = MAX_JSON_BYTES,
): Promise<Uint8Array | null | typeof TOO_LARGE> {
  try {
    return await pipe(bytes, new DecompressionStream('deflate-raw'), limit);
  } catch {
    return null;
  }
}

// ---- the state ---------------------------------------------------------------------------------------

/**
 * Parts of the state that optional features contribute when a link is made (compare mode adds
 * `compare`). A field the caller's state already has wins over a contribution.
 */
export type ShareContribution = () => Pick<SharedState, 'compare'>;
const contributions = new Set<ShareContribution>();

/**
 * How the page's address follows a contribution: `busy` is true while it is on its way to a state
 * worth writing (the address then waits); a change of what it contributes is announced with
 * `shareContributionChanged`.
 */
export interface ShareContributionHooks {
  busy?: () => boolean;
}
const hooks = new Map<ShareContribution, ShareContributionHooks>();
const changeListeners = new Set<() => void>();

/** Register a contribution; returns its removal. */
export function contributeToShare(fn: ShareContribution, opts: ShareContributionHooks = {}): () => void {
  contributions.add(fn);
  hooks.set(fn, opts);
  return () => {
    contributions.delete(fn);
    hooks.delete(fn);
  };
}

/** A contribution changed (compare mode entered, left, or run B moved on by itself). */
export function shareContributionChanged(): void {
  for (const fn of changeListeners) fn();
}

/** Calls `changed` on every `shareContributionChanged` (for the live address); returns the unsubscribe. */
export function onShareContributionChange(changed: () => void): () => void {
  changeListeners.add(changed);
  return () => changeListeners.delete(changed);
}

/** Some contribution is on its way to a new state (the live address waits for it). */
export function shareContributionsBusy(): boolean {
  for (const h of hooks.values()) if (h.busy?.()) return true;
  return false;
}

/** The fragment for a state, starting with `#s=<SHARE_VERSION>.`. */
export async function encodeShare(state: SharedState): Promise<string> {
  let full = state;
  for (const fn of contributions) full = { ...fn(), ...full };
  const kept = normalise(full);
  // what decodeShare would refuse is never made: checked on the texts' length before any work (a
  // 50 MB paste took seconds to stringify, compress and put in the address bar, for a link that
  // does not open), then on the JSON and on the link itself
  const texts = [kept.scenario, kept.policy, kept.compare?.scenario, kept.compare?.policy];
  const chars = texts.reduce((n, t) => n + (t?.length ?? 0), 0);
  if (chars > MAX_JSON_BYTES) throw new ShareTooLarge(`its texts are ${mb(chars)} characters`);
  const json = new TextEncoder().encode(JSON.stringify(kept));
  if (json.length > MAX_JSON_BYTES) throw new ShareTooLarge(`it holds ${mb(json.length)} bytes`);
  const body = `${SHARE_VERSION}.${toBase64Url(await deflate(json))}`;
  if (body.length > MAX_LINK_CHARS)
    throw new ShareTooLarge(`its link would be ${fmtCount(body.length)} characters long`);
  return `#s=${body}`;
}

/** A count in millions, or in full under one. */
const mb = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} million` : fmtCount(n));

/**
 * The state is too large for a link that opens (decodeShare's limits): `reason` says how large, and
 * `message` what the limits are and what to do instead.
 */
export class ShareTooLarge extends Error {
  constructor(readonly reason: string) {
    super(
      `This run cannot be shared as a link: ${reason}, and a link holds at most ${MAX_JSON_BYTES / (1024 * 1024)} MB of text in ${(MAX_LINK_CHARS / 1024).toFixed(0)}k characters. Shorten the texts, or send them as a file (Download the texts, beside this message).`,
    );
    this.name = 'ShareTooLarge';
  }
}

/** Keeps only known keys, in a fixed order (so the same state gives the same link). */
function normalise(s: SharedState): SharedState {
  const out: SharedState = { scenario: s.scenario, playhead: s.playhead, layout: {} };
  if (s.scenarioId !== undefined) out.scenarioId = s.scenarioId;
  if (s.policy !== undefined) out.policy = s.policy;
  if (s.seed !== undefined) out.seed = s.seed;
  if (s.layout.theme) out.layout.theme = s.layout.theme;
  if (s.layout.editor) out.layout.editor = s.layout.editor;
  if (s.layout.speed !== undefined) out.layout.speed = s.layout.speed;
  if (s.compare) {
    const c: SharedCompare = {};
    if (s.compare.scenario !== undefined) c.scenario = s.compare.scenario;
    if (s.compare.policy !== undefined) c.policy = s.compare.policy;
    if (s.compare.sets !== undefined) c.sets = [...s.compare.sets];
    if (s.compare.label !== undefined) c.label = s.compare.label;
    if (s.compare.playhead !== undefined) c.playhead = s.compare.playhead;
    out.compare = c;
  }
  if (s.embed) {
    const panels = cleanPanels(s.embed.panels);
    if (panels) out.embed = { panels };
  }
  if (s.selected !== undefined) out.selected = s.selected;
  if (s.explain !== undefined) out.explain = s.explain;
  if (s.traceBytes && Object.keys(s.traceBytes).length > 0) {
    const names = Object.keys(s.traceBytes).sort();
    out.traceBytes = Object.fromEntries(names.map((n) => [n, (s.traceBytes as Record<string, number>)[n]]));
  }
  return out;
}

// ---- schemas, one per format version -------------------------------------------------------------------

/** A value that is dropped (undefined) when it does not fit, instead of failing the whole link. */
const lenient = <T extends z.ZodType>(t: T) => t.optional().catch(undefined);

/** Layout choices: a bad value is dropped, never fatal (a link's look is not its content). */
const LayoutSchema = z
  .object({
    theme: lenient(z.enum(['light', 'dark'])),
    editor: lenient(z.enum(['policy', 'scenario'])),
    speed: lenient(z.number().int().min(0).max(63)),
  })
  .catch({});

const bad = 'the link has a malformed comparison';
const CompareSchema = z.object(
  {
    scenario: z
      .string({ error: `${bad} (scenario B)` })
      .min(1, `${bad} (scenario B)`)
      .optional(),
    policy: z.string({ error: `${bad} (policy B)` }).optional(),
    sets: z
      .array(z.string({ error: `${bad} (overrides)` }).max(4096, `${bad} (overrides)`), {
        error: `${bad} (overrides)`,
      })
      .max(MAX_COMPARE_SETS, `${bad} (overrides)`)
      .optional(),
    label: z
      .string({ error: `${bad} (label)` })
      .max(MAX_COMPARE_LABEL, `${bad} (label)`)
      .optional(),
    playhead: z
      .number({ error: `${bad} (run B's playhead)` })
      .int(`${bad} (run B's playhead)`)
      .min(0, `${bad} (run B's playhead)`)
      .max(1e9, `${bad} (run B's playhead)`)
      .optional(),
  },
  { error: bad },
);

/** Format 1, as links made before the selection was shared hold it. */
const StateV1 = z.object(
  {
    scenarioId: z.string({ error: 'the link has a malformed scenario id' }).optional(),
    scenario: z.string({ error: 'the link holds no scenario' }).min(1, 'the link holds no scenario'),
    policy: z.string({ error: 'the link has a malformed policy' }).optional(),
    seed: z.number({ error: 'the link has a malformed seed' }).finite().optional(),
    playhead: z
      .number({ error: 'the link has a malformed playhead' })
      .int('the link has a malformed playhead')
      .min(0, 'the link has a malformed playhead')
      .max(1e9, 'the link has a malformed playhead'),
    layout: LayoutSchema.optional(),
    compare: CompareSchema.optional(),
    // a malformed embed value is ignored, not fatal (embed mode falls back to its query or defaults)
    embed: z
      .object({ panels: z.array(z.unknown()) })
      .optional()
      .catch(undefined),
    // the dropped traces' sizes: never fatal; what is no byte count is named (see readTraceBytes)
    traceBytes: z.unknown().optional(),
  },
  { error: 'the link holds no state object' },
);

/** Format 2: format 1 plus the selected decision and its explanation; a damaged selection is dropped. */
const StateV2 = StateV1.extend({
  selected: z.number().int().min(0).max(1e9).optional(),
  explain: z.boolean().optional(),
});

type V1 = z.infer<typeof StateV1>;
type V2 = z.infer<typeof StateV2>;

/** Every past format's schema and its step to the next format. */
const MIGRATIONS: Record<number, { schema: z.ZodType; up: (v: never) => unknown }> = {
  1: { schema: StateV1, up: (v: V1): V2 => ({ ...v }) },
};

function toState(v: V2, dropped: string[]): SharedState {
  const out: SharedState = {
    scenario: v.scenario,
    playhead: v.playhead,
    layout: {
      ...(v.layout?.theme ? { theme: v.layout.theme } : {}),
      ...(v.layout?.editor ? { editor: v.layout.editor } : {}),
      ...(v.layout?.speed !== undefined ? { speed: v.layout.speed } : {}),
    },
  };
  if (v.scenarioId !== undefined) out.scenarioId = v.scenarioId;
  if (v.policy !== undefined) out.policy = v.policy;
  if (v.seed !== undefined) out.seed = v.seed;
  if (v.compare) out.compare = v.compare;
  if (v.embed) out.embed = { panels: v.embed.panels as string[] };
  const sizes = readTraceBytes(v.traceBytes);
  if (sizes.good) out.traceBytes = sizes.good;
  if (v.selected !== undefined) {
    if (v.selected < v.playhead) {
      out.selected = v.selected;
      if (v.explain !== undefined) out.explain = v.explain;
    } else dropped.push('the selected decision (it is past the playhead)');
  }
  const state = normalise(out);
  if (sizes.unreadable) state.unreadableTraceBytes = sizes.unreadable;
  return state;
}

/** The longest `trace.file` a scenario may name: a longer key in `traceBytes` is about no file. */
const MAX_TRACE_NAME = 4096;

const isByteCount = (n: unknown): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= Number.MAX_SAFE_INTEGER;

/** A JSON value as a message quotes it: briefly, a string in quotes, a list or object by its kind. */
function valueWords(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `"${v.length <= 24 ? v : `${v.slice(0, 23)}…`}"`;
  return String(v);
}

/** A link's `traceBytes` as decoded: its byte counts, and what of it is none. */
function readTraceBytes(v: unknown): {
  good?: Record<string, number>;
  unreadable?: SharedState['unreadableTraceBytes'];
} {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return { unreadable: { whole: valueWords(v) } };
  const good: Record<string, number> = {};
  const bad = new Map<string, string>();
  for (const [name, n] of Object.entries(v)) {
    if (name.length > MAX_TRACE_NAME) continue;
    if (isByteCount(n))
      Object.defineProperty(good, name, { value: n, enumerable: true, writable: true, configurable: true });
    else bad.set(name, valueWords(n));
  }
  return {
    ...(Object.keys(good).length > 0 ? { good } : {}),
    ...(bad.size > 0 ? { unreadable: { entries: bad } } : {}),
  };
}

/** Checks a decoded value of format `version` and migrates it to the current one. */
export function readState(version: number, value: unknown): DecodeResult {
  const dropped: string[] = [];
  let v: unknown = value;
  for (let from = version; from < SHARE_VERSION; from++) {
    const step = MIGRATIONS[from];
    const parsed = step.schema.safeParse(v);
    if (!parsed.success)
      return { ok: false, reason: parsed.error.issues[0]?.message ?? 'the link is malformed' };
    v = step.up(parsed.data as never);
  }
  // the current format: the selection is optional and, when damaged, dropped rather than fatal
  const o = v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as object) } : v;
  if (o && typeof o === 'object') {
    const rec = o as { selected?: unknown; explain?: unknown };
    const sel = z.number().int().min(0).max(1e9).optional().safeParse(rec.selected);
    const exp = z.boolean().optional().safeParse(rec.explain);
    if (!sel.success || !exp.success) {
      delete rec.selected;
      delete rec.explain;
      dropped.push('the selected decision (damaged)');
    }
  }
  const parsed = StateV2.safeParse(o);
  if (!parsed.success)
    return { ok: false, reason: parsed.error.issues[0]?.message ?? 'the link is malformed' };
  const state = toState(parsed.data, dropped);
  return dropped.length ? { ok: true, state, dropped } : { ok: true, state };
}

/** True when the fragment is meant as a share link (starts with `#s=`), valid or not. */
export function isShareFragment(hash: string): boolean {
  return hash.startsWith('#s=');
}

/** What a person reads when nothing of a link could be used. */
const NOTHING_KEPT = 'nothing of it could be kept';

/** Decodes `#s=<version>.<payload>`; never throws. */
export async function decodeShare(hash: string): Promise<DecodeResult> {
  try {
    if (!isShareFragment(hash)) return { ok: false, reason: 'this is not a share link' };
    const body = hash.slice(3);
    if (body.length > MAX_LINK_CHARS)
      return {
        ok: false,
        reason: `the link is too long (${body.length} characters; the limit is ${MAX_LINK_CHARS})`,
      };
    const dot = body.indexOf('.');
    if (dot < 1)
      return { ok: false, reason: `the link is damaged or truncated (it has no version); ${NOTHING_KEPT}` };
    const versionText = body.slice(0, dot);
    if (!/^\d{1,6}$/.test(versionText))
      return { ok: false, reason: `the link is damaged (its version is malformed); ${NOTHING_KEPT}` };
    const version = Number(versionText);
    if (version > SHARE_VERSION)
      return {
        ok: false,
        reason: `the link was made by a newer Fairground (format ${version}; this one reads up to ${SHARE_VERSION})`,
      };
    if (version < 1) return { ok: false, reason: `unknown link format ${version}` };
    const text = body.slice(dot + 1);
    if (text.length === 0)
      return { ok: false, reason: `the link is truncated (it ends after its version); ${NOTHING_KEPT}` };
    if (/[^A-Za-z0-9_-]/.test(text))
      return {
        ok: false,
        reason: `the link is damaged (malformed: it holds characters a share link never has); ${NOTHING_KEPT}`,
      };
    const bytes = fromBase64Url(text);
    if (!bytes || bytes.length === 0)
      return {
        ok: false,
        reason: `the link is damaged or truncated (its length is impossible); ${NOTHING_KEPT}`,
      };
    const json = await inflate(bytes);
    if (json === TOO_LARGE)
      return {
        ok: false,
        reason: `the link is too large: it unpacks to more than ${MAX_JSON_BYTES / (1024 * 1024)} MB, the most a link may hold; ${NOTHING_KEPT}`,
      };
    if (!json)
      return {
        ok: false,
        reason: `the link is damaged or truncated (${text.length} characters that do not decompress); ${NOTHING_KEPT}`,
      };
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
    } catch {
      return {
        ok: false,
        reason: `the link is damaged or truncated (its contents are not readable); ${NOTHING_KEPT}`,
      };
    }
    return readState(version, value);
  } catch (err) {
    return {
      ok: false,
      reason: `the link cannot be read (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}
