/**
 * The compact frame the UI pulls once per animation frame: a fixed numeric header (Float64Array) and
 * the snapshot plus the decisions taken since the last frame as UTF-8 JSON, in one ArrayBuffer that
 * is transferred (not copied) from the worker. The packer keeps every frame under a byte budget by
 * dropping the oldest decisions first and then shortening long arrays inside the snapshot.
 */
import type { SessionDecision } from './session';

/** Upper bound of one frame in bytes (the budget). */
export const FRAME_MAX_BYTES = 256 * 1024;

const MAGIC = 0x46475231; // "FGR1"
const HEADER_SLOTS = 8;
const HEADER_BYTES = HEADER_SLOTS * 8;

export interface FrameMeta {
  simTime: number;
  /** Decisions taken since the load (the playhead). */
  decisionCount: number;
  done: boolean;
  /** Total steps when the session knows them (an arbitration script), else null. */
  totalSteps: number | null;
  /** True when `decisions` replaces the UI's log (after a seek) instead of extending it. */
  replaceLog: boolean;
  /** Largest playhead seen since the load (the timeline's reach). */
  reach: number;
}

export interface Frame extends FrameMeta {
  /** Null in a light frame (the snapshot is sent at a lower rate while playing fast). */
  snapshot: Record<string, unknown> | null;
  /** Newest last. */
  decisions: SessionDecision[];
  /** Size of the packed buffer. */
  bytes: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Shortens every array longer than `keep` to its last `keep` items (recursively). */
function shorten(value: unknown, keep: number): unknown {
  if (Array.isArray(value)) {
    const tail = value.length > keep ? value.slice(value.length - keep) : value;
    return tail.map((v) => shorten(v, keep));
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = shorten(v, keep);
    return out;
  }
  return value;
}

function body(snapshot: unknown, decisions: SessionDecision[]): Uint8Array {
  return encoder.encode(JSON.stringify({ snapshot, decisions }));
}

/** Packs one frame into a fresh ArrayBuffer of at most `maxBytes` bytes. */
export function packFrame(
  meta: FrameMeta,
  snapshot: Record<string, unknown> | null,
  decisions: SessionDecision[],
  maxBytes = FRAME_MAX_BYTES,
): ArrayBuffer {
  const room = maxBytes - HEADER_BYTES;
  let kept = decisions;
  let snap: unknown = snapshot;
  let bytes = body(snap, kept);
  // Drop the oldest decisions (halving) until the frame fits.
  while (bytes.length > room && kept.length > 0) {
    kept = kept.slice(Math.ceil(kept.length / 2));
    bytes = body(snap, kept);
  }
  // Then shorten long arrays inside the snapshot.
  for (let keep = 512; snapshot && bytes.length > room && keep >= 1; keep = Math.floor(keep / 4)) {
    snap = { ...(shorten(snapshot, keep) as object), frame_truncated: true };
    bytes = body(snap, kept);
  }
  if (bytes.length > room) bytes = body({ sim_time_s: meta.simTime, frame_truncated: true }, []);
  const buf = new ArrayBuffer(HEADER_BYTES + bytes.length);
  const head = new Float64Array(buf, 0, HEADER_SLOTS);
  head[0] = MAGIC;
  head[1] = meta.simTime;
  head[2] = meta.decisionCount;
  head[3] = meta.done ? 1 : 0;
  head[4] = meta.totalSteps ?? -1;
  head[5] = meta.replaceLog ? 1 : 0;
  head[6] = meta.reach;
  head[7] = bytes.length;
  new Uint8Array(buf, HEADER_BYTES).set(bytes);
  return buf;
}

/** Reads a frame packed by `packFrame`; throws on a buffer that is not one. */
export function unpackFrame(buf: ArrayBuffer): Frame {
  if (buf.byteLength < HEADER_BYTES) throw new Error('frame too short');
  const head = new Float64Array(buf, 0, HEADER_SLOTS);
  if (head[0] !== MAGIC) throw new Error('not a Fairground frame');
  const len = head[7];
  if (HEADER_BYTES + len !== buf.byteLength) throw new Error('frame length mismatch');
  const parsed = JSON.parse(decoder.decode(new Uint8Array(buf, HEADER_BYTES, len))) as {
    snapshot: Record<string, unknown> | null;
    decisions: SessionDecision[];
  };
  return {
    simTime: head[1],
    decisionCount: head[2],
    done: head[3] === 1,
    totalSteps: head[4] < 0 ? null : head[4],
    replaceLog: head[5] === 1,
    reach: head[6],
    snapshot: parsed.snapshot,
    decisions: parsed.decisions,
    bytes: buf.byteLength,
  };
}
