/**
 * The compact frame the UI pulls once per animation frame: a fixed numeric header (Float64Array) and
 * the snapshot plus the decisions taken since the last frame as UTF-8 JSON, in one ArrayBuffer that
 * is transferred (not copied) from the worker. The packer keeps every frame under a byte budget by
 * dropping the oldest decisions first and then shortening the snapshot's long lists (keeping the
 * newest samples of each time series), which the header then flags as `truncated`.
 */
import type { DrrStateSnapshot } from '../core/drr/queued-view';
import type { SessionDecision, SessionSnapshot, SimSnapshot } from './session';

/** Upper bound of one frame in bytes (the budget). */
export const FRAME_MAX_BYTES = 256 * 1024;

const MAGIC = 0x46475231; // "FGR1"
const HEADER_SLOTS = 9;
const HEADER_BYTES = HEADER_SLOTS * 8;

export interface FrameMeta {
  sim_time_s: number;
  /** Decisions taken since the load (the playhead). */
  decision_count: number;
  done: boolean;
  /** Total steps when the session knows them (an arbitration script), else null. */
  total_steps: number | null;
  /** True when `decisions` replaces the UI's log (after a seek) instead of extending it. */
  replace_log: boolean;
  /** Largest playhead seen since the load (the timeline's reach). */
  reach: number;
}

export interface Frame extends FrameMeta {
  /** Null in a light frame (the snapshot is sent at a lower rate while playing fast). */
  snapshot: SessionSnapshot | null;
  /** Newest last. */
  decisions: SessionDecision[];
  /** The snapshot's lists were shortened (or it was left out) to fit the byte budget. */
  truncated: boolean;
  /** Size of the packed buffer. */
  bytes: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const tail = <T>(xs: readonly T[], keep: number): T[] => xs.slice(Math.max(0, xs.length - keep));
const first = <T>(xs: readonly T[], keep: number): T[] => xs.slice(0, keep);

function lightenDrr(drr: DrrStateSnapshot, keep: number): DrrStateSnapshot {
  return { ...drr, queues: drr.queues.map((q) => ({ class: q.class, requests: first(q.requests, keep) })) };
}

function lightenCluster(s: SimSnapshot, keep: number): SimSnapshot {
  const rows = (r: Record<string, number[]>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, tail(v, keep)]));
  const g = s.guarantee;
  const out: SimSnapshot = {
    ...s,
    series: { ...s.series, t: tail(s.series.t, keep), rows: rows(s.series.rows) },
    guarantee: {
      ...g,
      series: {
        ...g.series,
        t: tail(g.series.t, keep),
        bound: tail(g.series.bound, keep),
        rows: Object.fromEntries(Object.entries(g.series.rows).map(([k, v]) => [k, tail(v, keep)])),
      },
    },
    workers: s.workers.map((w) => ({
      ...w,
      running: first(w.running, keep),
      waiting: first(w.waiting, keep),
      running_clients: first(w.running_clients, keep),
      waiting_clients: first(w.waiting_clients, keep),
      radix: { ...w.radix, top: first(w.radix.top, keep) },
    })),
  };
  if (s.drr) out.drr = lightenDrr(s.drr, keep);
  const cs = s.class_service;
  if (cs) {
    const series = cs.series;
    out.class_service = {
      ...cs,
      series: {
        t: tail(series.t, keep),
        served: series.served.map((r) => tail(r, keep)),
        queued: series.queued.map((r) => tail(r, keep)),
        rejected: series.rejected.map((r) => tail(r, keep)),
        shed: series.shed.map((r) => tail(r, keep)),
        contended: series.contended.map((r) => tail(r, keep)),
        predicted: series.predicted.map((r) => tail(r, keep)),
      },
    };
  }
  return out;
}

/** The snapshot with its long lists cut to `keep` items (the newest samples of each series). */
export function lightenSnapshot(s: SessionSnapshot, keep: number): SessionSnapshot {
  return s.kind === 'cluster' ? lightenCluster(s, keep) : { ...s, drr: lightenDrr(s.drr, keep) };
}

function body(snapshot: SessionSnapshot | null, decisions: SessionDecision[]): Uint8Array {
  return encoder.encode(JSON.stringify({ snapshot, decisions }));
}

/** Packs one frame into a fresh ArrayBuffer of at most `maxBytes` bytes. */
export function packFrame(
  meta: FrameMeta,
  snapshot: SessionSnapshot | null,
  decisions: SessionDecision[],
  maxBytes = FRAME_MAX_BYTES,
): ArrayBuffer {
  const room = maxBytes - HEADER_BYTES;
  let kept = decisions;
  let snap: SessionSnapshot | null = snapshot;
  let truncated = false;
  let bytes = body(snap, kept);
  // Drop the oldest decisions (halving) until the frame fits.
  while (bytes.length > room && kept.length > 0) {
    kept = kept.slice(Math.ceil(kept.length / 2));
    bytes = body(snap, kept);
  }
  // Then shorten long arrays inside the snapshot.
  for (let keep = 512; snapshot && bytes.length > room && keep >= 1; keep = Math.floor(keep / 4)) {
    snap = lightenSnapshot(snapshot, keep);
    truncated = true;
    bytes = body(snap, kept);
  }
  // Still too big: a frame without a snapshot (the UI keeps the one it has).
  if (bytes.length > room) bytes = body(null, []);
  const buf = new ArrayBuffer(HEADER_BYTES + bytes.length);
  const head = new Float64Array(buf, 0, HEADER_SLOTS);
  head[0] = MAGIC;
  head[1] = meta.sim_time_s;
  head[2] = meta.decision_count;
  head[3] = meta.done ? 1 : 0;
  head[4] = meta.total_steps ?? -1;
  head[5] = meta.replace_log ? 1 : 0;
  head[6] = meta.reach;
  head[7] = bytes.length;
  head[8] = truncated ? 1 : 0;
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
    snapshot: SessionSnapshot | null;
    decisions: SessionDecision[];
  };
  return {
    sim_time_s: head[1],
    decision_count: head[2],
    done: head[3] === 1,
    total_steps: head[4] < 0 ? null : head[4],
    replace_log: head[5] === 1,
    reach: head[6],
    snapshot: parsed.snapshot,
    decisions: parsed.decisions,
    truncated: head[8] === 1,
    bytes: buf.byteLength,
  };
}
