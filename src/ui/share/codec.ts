/**
 * Share links: the whole state needed to reproduce a view, in the URL fragment as `#s=1.<payload>`.
 * The payload is the JSON of a `SharedState`, compressed with raw deflate (CompressionStream) and
 * written in base64url. Decoding never throws: a bad link gives a reason a person can read. Pure
 * (no DOM), so Node tests it directly.
 */

import { cleanPanels } from '../embed/panels';

export const SHARE_VERSION = 1;
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
}

/** Most override lines a link's comparison may carry, and the longest label. */
export const MAX_COMPARE_SETS = 64;
export const MAX_COMPARE_LABEL = 120;

export interface SharedState {
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
}

/** The panels an embedded view shows (names from EMBED_PANELS). */
export interface SharedEmbed {
  panels: string[];
}

export type DecodeResult = { ok: true; state: SharedState } | { ok: false; reason: string };

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

async function pipe(
  bytes: Uint8Array,
  stream: GenericTransformStream,
  limit: number,
): Promise<Uint8Array | null> {
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
      return null;
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

/** Inflates at most `limit` bytes; null when the data is corrupt, truncated or too large. */
export async function inflate(bytes: Uint8Array, limit = MAX_JSON_BYTES): Promise<Uint8Array | null> {
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

/** Register a contribution; returns its removal. */
export function contributeToShare(fn: ShareContribution): () => void {
  contributions.add(fn);
  return () => contributions.delete(fn);
}

/** The fragment for a state, starting with `#s=1.`. */
export async function encodeShare(state: SharedState): Promise<string> {
  let full = state;
  for (const fn of contributions) full = { ...fn(), ...full };
  const json = new TextEncoder().encode(JSON.stringify(normalise(full)));
  return `#s=${SHARE_VERSION}.${toBase64Url(await deflate(json))}`;
}

/** Keeps only known keys with the right types (a shared link is untrusted input). */
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
    out.compare = c;
  }
  if (s.embed) {
    const panels = cleanPanels(s.embed.panels);
    if (panels) out.embed = { panels };
  }
  return out;
}

/** A link's comparison, checked field by field; a string says what is wrong. */
function validCompare(v: unknown): SharedCompare | string | undefined {
  if (v === undefined) return undefined;
  const bad = 'the link has a malformed comparison';
  if (!v || typeof v !== 'object' || Array.isArray(v)) return bad;
  const o = v as Record<string, unknown>;
  const c: SharedCompare = {};
  if (o.scenario !== undefined) {
    if (typeof o.scenario !== 'string' || o.scenario.length === 0) return `${bad} (scenario B)`;
    c.scenario = o.scenario;
  }
  if (o.policy !== undefined) {
    if (typeof o.policy !== 'string') return `${bad} (policy B)`;
    c.policy = o.policy;
  }
  if (o.sets !== undefined) {
    if (
      !Array.isArray(o.sets) ||
      o.sets.length > MAX_COMPARE_SETS ||
      !o.sets.every((x) => typeof x === 'string' && x.length <= 4096)
    )
      return `${bad} (overrides)`;
    c.sets = o.sets as string[];
  }
  if (o.label !== undefined) {
    if (typeof o.label !== 'string' || o.label.length > MAX_COMPARE_LABEL) return `${bad} (label)`;
    c.label = o.label;
  }
  return c;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function validState(v: unknown): SharedState | string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'the link holds no state object';
  const o = v as Record<string, unknown>;
  if (typeof o.scenario !== 'string' || o.scenario.length === 0) return 'the link holds no scenario';
  if (o.policy !== undefined && typeof o.policy !== 'string') return 'the link has a malformed policy';
  if (o.scenarioId !== undefined && typeof o.scenarioId !== 'string')
    return 'the link has a malformed scenario id';
  if (o.seed !== undefined && (typeof o.seed !== 'number' || !Number.isFinite(o.seed)))
    return 'the link has a malformed seed';
  const ph = o.playhead;
  if (typeof ph !== 'number' || !Number.isInteger(ph) || ph < 0 || ph > 1e9)
    return 'the link has a malformed playhead';
  const layoutIn = (o.layout && typeof o.layout === 'object' ? o.layout : {}) as Record<string, unknown>;
  const layout: SharedLayout = {};
  if (layoutIn.theme === 'light' || layoutIn.theme === 'dark') layout.theme = layoutIn.theme;
  if (layoutIn.editor === 'policy' || layoutIn.editor === 'scenario') layout.editor = layoutIn.editor;
  if (
    typeof layoutIn.speed === 'number' &&
    Number.isInteger(layoutIn.speed) &&
    layoutIn.speed >= 0 &&
    layoutIn.speed < 64
  )
    layout.speed = layoutIn.speed;
  const compare = validCompare(o.compare);
  if (typeof compare === 'string') return compare;
  return normalise({
    scenario: o.scenario,
    policy: o.policy as string | undefined,
    scenarioId: o.scenarioId as string | undefined,
    seed: o.seed as number | undefined,
    playhead: ph,
    layout,
    ...(compare ? { compare } : {}),
    ...(isObject(o.embed) && Array.isArray(o.embed.panels)
      ? { embed: { panels: o.embed.panels as string[] } }
      : {}),
  });
}

/** True when the fragment is meant as a share link (starts with `#s=`), valid or not. */
export function isShareFragment(hash: string): boolean {
  return hash.startsWith('#s=');
}

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
    if (dot < 1) return { ok: false, reason: 'the link has no version' };
    const versionText = body.slice(0, dot);
    if (!/^\d{1,6}$/.test(versionText)) return { ok: false, reason: 'the link has a malformed version' };
    const version = Number(versionText);
    if (version > SHARE_VERSION)
      return {
        ok: false,
        reason: `the link was made by a newer Fairground (format ${version}; this one reads up to ${SHARE_VERSION})`,
      };
    if (version < 1) return { ok: false, reason: `unknown link format ${version}` };
    const bytes = fromBase64Url(body.slice(dot + 1));
    if (!bytes || bytes.length === 0) return { ok: false, reason: 'the link is malformed (not base64url)' };
    const json = await inflate(bytes);
    if (!json) return { ok: false, reason: 'the link is damaged or truncated (it does not decompress)' };
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
    } catch {
      return { ok: false, reason: 'the link is damaged or truncated (its contents are not readable)' };
    }
    const state = validState(value);
    return typeof state === 'string' ? { ok: false, reason: state } : { ok: true, state };
  } catch (err) {
    return {
      ok: false,
      reason: `the link cannot be read (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}
