/**
 * DLPM, Deficit Longest Prefix Match (seed 002, Algorithm 1), on one worker.
 *
 * State: a deficit q_i per client this worker has seen (the client list l; a new client starts at
 * 0) and the quantum Q^u (`scheduler.quantum`). In every batch step the waiting queue is sorted by
 * cached prefix, longest first (ties keep queue order), and scanned in that order:
 *   - a request whose client has q_i ≤ 0 first triggers CHECKREFILL: if no client with waiting
 *     requests has a positive deficit, every client of l with q_i ≤ 0 gets Q^u;
 *   - then, if q_i > 0 and the request fits, it is admitted and q_i −= w_e · extend length (the
 *     prompt tokens not found in the radix cache); otherwise it is skipped and the scan goes on.
 * After every batch step, q_i −= w_q for every output token client i's requests produced (one per
 * decoding request, plus the first token of a request whose prefill finished). The listing charges
 * w_q per request of i in the batch; a request still in a chunked prefill produces no token and is
 * not charged, so the deficit and the service metric count the same work.
 *
 * Reading of the listing (Algorithm 1, lines 16–25):
 *   - After a refill the scan continues from the request that triggered it (line 21 re-tests that
 *     same request) and does not restart from the top; requests skipped earlier in the pass are
 *     revisited by the next pass (the outer `while not Queue.empty()` loop).
 *   - That outer loop would spin for ever once nothing fits, before the forward step. Here a pass is
 *     repeated only while the previous pass changed something (admitted a request or refilled); a
 *     pass that changes nothing would repeat itself exactly, so it ends the step's admissions. A pass
 *     also ends early when the worker has no running slot or token budget left: nothing further can
 *     be added, and a refill the rest of the scan might have done happens at the next step's scan.
 *   - A request that fails for KV memory keeps failing for the rest of the step (memory only shrinks
 *     while a step is being planned), so later passes do not offer it again. After the first such
 *     failure, free + evictable blocks (a sum that never grows while a step is planned), minus the
 *     unlocked part of a request's own cached path (admission locks it before evicting), bound what
 *     that request can get; one whose uncached part needs more is skipped without a try (see
 *     `cannotFit`): the same outcome, without re-matching and evicting for it.
 *
 * This class is the reference (it re-reads, sorts and scans the whole queue each step); the descriptor
 * runs ./live-policy.ts, which keeps the order live and makes the same decisions and records.
 *
 * Cost per step: the prefix sort (./prefix-order.ts: a remembered radix match per waiting request,
 * then O(n log n)) and usually one or two passes over the queue; CHECKREFILL's scan of the clients runs at most once per
 * admission (its answer cannot change in between), so a pass is O(queue + admissions · clients).
 *
 * Deliberately broken variant (`scheduler.dlpm_quantum_per_request: true`, for the Guarantees view):
 * a request reached while its client's deficit is used up tops up that client alone by Q^u, instead
 * of CHECKREFILL's round that refills every client only once no waiting client has credit left. The
 * proof of Theorem 4.1 rests on backlogged clients being refilled the same number of times; with a
 * quantum per request a client earns credit in proportion to the requests it sends, the deficit stops
 * limiting anyone, the order falls back to plain LPM and the service gap grows without bound.
 *
 * Guarantee (Theorem 4.1): for two clients continuously backlogged at this worker over an interval,
 * the service they are charged differs by at most 2·(U + Q^u), U = w_e·L_input + w_q·M.
 * `describe()` reports it with L_input = the longest prompt seen here and M = the KV capacity in
 * tokens (no batch can hold more).
 */
import type { SimRequest } from '../../sim/request';
import type {
  AdmissionContext,
  ClientPolicyState,
  LocalPolicy,
  LocalPolicyConfig,
  WorkerView,
} from '../../replica/local-policy';
import type { RadixNode } from '../../replica/radix-cache';
import { MatchedQueue } from '../shared/matched-queue';
import { cachedPrefix, prefixOrder } from '../shared/prefix-order';
import type { DlpmAdmitDetail, DlpmOrderEntry } from './detail';
import type { DlpmParams } from './params';

/** At most this many skipped clients / refills are kept for one decision record. */
export const MAX_NOTES = 32;
/** At most this many scan-order entries go into one decision record (plus the admitted one). */
export const MAX_ORDER = 24;

/** What happened to a waiting request in this step's scan so far (recording only). */
export const SEEN_NONE = 0;
export const SEEN_ADMITTED = 1;
export const SEEN_NO_ROOM = 2;
export const SEEN_NO_DEFICIT = 3;

/**
 * Clients skipped and refills since the last admission record (only kept while recording): a try
 * refused for room writes no record, so what was noted before it stays for the next admission's
 * (detail.ts: "every refill since the previous admission record").
 */
export interface Notes {
  skipped: { client: string; deficit: number }[];
  refills: { quantum: number; clients: string[] }[];
}

/** The step's scan as a record describes it. */
interface Scan {
  order: Int32Array;
  match: Int32Array;
  fallback: boolean;
  seen: Uint8Array;
  /** The client's deficit when the scan last reached each request. */
  deficit: Float64Array;
}

/**
 * True when waiting entry `i` surely gets 'no-kv' now, given `room` = free + evictable blocks taken
 * after an earlier failure of this step (free + evictable never grows while a step is planned).
 * Admission locks the request's cached path before evicting, so the unlocked part of that path is
 * not available to it: available ≤ room − unlocked path. Its need is the uncached rest of the prompt
 * (the current match, re-read).
 */
function cannotFit(q: MatchedQueue, i: number, worker: WorkerView, room: number): boolean {
  return cannotFitAt(q.matchEnd(i, worker.radix), q.items[i], worker, room);
}

/** `cannotFit` for a request whose match (re-read now) ends at `end`. */
export function cannotFitAt(
  end: { node: RadixNode; within: number; length: number },
  req: SimRequest,
  worker: WorkerView,
  room: number,
): boolean {
  const radix = worker.radix;
  let unlocked = 0;
  let n: RadixNode | null = end.node;
  if (end.within < end.node.len) {
    // the match ends inside this edge: admission splits it and locks only the matched part
    if (end.node.lock === 0) unlocked += end.within;
    n = end.node.parent;
  }
  for (; n !== null && n !== radix.root; n = n.parent) if (n.lock === 0) unlocked += n.len;
  const need = worker.kv.blocksFor(req.promptLen - end.length);
  return need > room - unlocked / radix.blockSize;
}

/** Test-only: `reference` makes the descriptor build this class instead of the live one (./live-policy.ts). */
export const dlpmImplementation = { reference: false };

/** What a snapshot shows of DLPM on one worker: the Theorem 4.1 bound and its terms, and deficits. */
export interface DlpmState {
  bound: number;
  U: number;
  quantum: number;
  L_input: number;
  M: number;
  weights: { input: number; output: number };
  refills: number;
  /** Client name -> deficit (clients seen here). */
  deficits: Record<string, number>;
  /** Present (true) when the quantum is given per request rather than per round. */
  quantum_per_request?: true;
}

export class DlpmPolicy implements LocalPolicy {
  readonly name = 'dlpm';
  readonly quantum: number;
  protected readonly clients: readonly string[];
  protected readonly deficits: Float64Array;
  /** Client list l: clients this worker has seen, in first-seen order. */
  protected readonly list: number[] = [];
  protected readonly inList: Uint8Array;
  /** Waiting requests per client (the set {client(r) | r ∈ Queue}). */
  protected readonly queued: Int32Array;
  private readonly queue = new MatchedQueue();
  protected readonly we: number;
  protected readonly wq: number;
  protected readonly fallbackAbove: number;
  protected readonly workerId: number;
  /** The broken variant: a quantum per request instead of per refill round (see the class comment). */
  readonly quantumPerRequest: boolean;
  protected view: WorkerView | null = null;
  protected maxPrompt = 0;
  /** CHECKREFILL grants so far. */
  refills = 0;
  /**
   * Requests checked against the room after a KV failure (`cannotFit`), so far: the reference checks
   * every one its scan reaches; the live policy only those within the bound (tests, bench).
   */
  roomChecks = 0;
  protected notes: Notes = { skipped: [], refills: [] };

  constructor(cfg: LocalPolicyConfig<DlpmParams>) {
    const n = cfg.clients.length;
    this.clients = cfg.clients;
    this.deficits = new Float64Array(n);
    this.inList = new Uint8Array(n);
    this.queued = new Int32Array(n);
    this.quantum = cfg.params.quantum;
    this.we = cfg.weights.input;
    this.wq = cfg.weights.output;
    this.fallbackAbove = cfg.params.lpm_fcfs_fallback;
    this.workerId = cfg.workerId;
    this.quantumPerRequest = cfg.params.dlpm_quantum_per_request === true;
  }

  size(): number {
    return this.queue.length;
  }

  /** Deficit q_i of client `c` (for tests). */
  deficit(c: number): number {
    return this.deficits[c];
  }

  /** A request joins: its client enters the list l (at q = 0) if new, and counts as waiting. */
  protected noteArrival(req: SimRequest, worker: WorkerView): void {
    this.view = worker;
    const c = req.client;
    if (this.inList[c] === 0) {
      this.inList[c] = 1; // a new client starts at q = 0
      this.list.push(c);
    }
    if (req.promptLen > this.maxPrompt) this.maxPrompt = req.promptLen;
    this.queued[c]++;
  }

  enqueue(req: SimRequest, worker: WorkerView, front: boolean): void {
    this.noteArrival(req, worker);
    if (front) this.queue.unshift(req);
    else this.queue.push(req);
  }

  /**
   * CHECKREFILL: when no client with waiting requests has a positive deficit, add Q^u to every client
   * of l whose deficit is ≤ 0. Returns the clients refilled (empty when it did not fire).
   */
  protected checkRefill(): number[] {
    for (const c of this.list) if (this.queued[c] > 0 && this.deficits[c] > 0) return [];
    const got: number[] = [];
    for (const c of this.list)
      if (this.deficits[c] <= 0) {
        this.deficits[c] += this.quantum;
        got.push(c);
      }
    this.refills++;
    return got;
  }

  admit(ctx: AdmissionContext): void {
    const q = this.queue;
    const items = q.items;
    const n = q.length;
    if (n === 0) return;
    const { order, match, fallback } = prefixOrder(q, ctx.worker, this.fallbackAbove);
    const rec = ctx.recording;
    // 0 = waiting, 1 = admitted, 2 = failed for KV memory this step
    const state = new Uint8Array(n);
    const scan: Scan | null = rec
      ? { order, match, fallback, seen: new Uint8Array(n), deficit: new Float64Array(n) }
      : null;
    let admitted = 0;
    /** Some waiting client has q > 0: CHECKREFILL cannot fire until an admission changes that. */
    let creditKnown = false;
    let full = false;
    /**
     * After a KV failure: free + evictable blocks, less what later admissions allocated (an upper
     * bound on what any request can still get in this step); -1 before any failure.
     */
    let room = -1;
    for (let pass = 0; !full && admitted < n; pass++) {
      let changed = false;
      for (let k = 0; k < n; k++) {
        const i = order[k];
        if (state[i] !== 0) continue;
        const r = items[i];
        const c = r.client;
        if (this.deficits[c] <= 0 && this.quantumPerRequest) {
          // broken variant: this request brings its client a quantum of its own
          this.deficits[c] += this.quantum;
          this.refills++;
          changed = true;
          if (scan !== null) this.note('refills', { quantum: this.quantum, clients: [this.clients[c]] });
        } else if (this.deficits[c] <= 0 && !creditKnown) {
          const got = this.checkRefill();
          if (got.length > 0) changed = true;
          else creditKnown = true;
          if (scan !== null && got.length > 0)
            this.note('refills', { quantum: this.quantum, clients: got.map((x) => this.clients[x]) });
        }
        const before = this.deficits[c];
        if (scan !== null) {
          scan.deficit[i] = before;
          scan.seen[i] = SEEN_NO_DEFICIT;
        }
        if (before <= 0) {
          if (scan !== null && !this.notes.skipped.some((x) => x.client === this.clients[c]))
            this.note('skipped', { client: this.clients[c], deficit: before });
          continue;
        }
        // a request that cannot fit in what is free or evictable now is not offered (the answer
        // would be 'no-kv'; see the class comment)
        if (room >= 0) {
          this.roomChecks++;
          if (cannotFit(q, i, ctx.worker, room)) {
            state[i] = 2;
            if (scan !== null) scan.seen[i] = SEEN_NO_ROOM;
            continue;
          }
        }
        const outcome =
          scan !== null
            ? ctx.tryAdmit(r, this.why(match[i], before, fallback), this.detail(scan, k, pass, ctx.worker))
            : ctx.tryAdmit(r);
        if (outcome === 'admitted') {
          state[i] = 1;
          if (scan !== null) {
            scan.seen[i] = SEEN_ADMITTED;
            // the record just written holds the notes: the next one starts afresh (a refused try's
            // record is not kept, so its notes carry over to the next admission's)
            this.notes = { skipped: [], refills: [] };
          }
          admitted++;
          changed = true;
          creditKnown = false;
          this.queued[c]--;
          this.deficits[c] -= this.we * (r.promptLen - r.cachedLen);
          if (room >= 0) room -= r.privBlocks; // what this admission allocated
        } else if (outcome === 'no-kv') {
          state[i] = 2;
          if (scan !== null) scan.seen[i] = SEEN_NO_ROOM;
          // everything evictable outside this request's path is gone now: take the bound afresh
          room = ctx.worker.kv.freeBlocks + ctx.worker.radix.evictableBlocks();
        } else {
          if (scan !== null) scan.seen[i] = SEEN_NONE;
          full = true; // no slot or token budget left: nothing else can be added this step
          break;
        }
      }
      if (!changed) break;
    }
    if (admitted > 0) {
      for (let i = 0; i < n; i++) state[i] = state[i] === 1 ? 1 : 0;
      q.removeFlagged(state);
    }
  }

  onStepEnd(batch: readonly SimRequest[]): void {
    const wq = this.wq;
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i];
      // one output token: a decode, or the first token at the end of prefill
      if (r.chunk > 0 && r.prefilled >= r.promptLen) this.deficits[r.client] -= wq;
    }
  }

  // ---- decision records (built only while recording) ---------------------------------------------

  protected note<K extends keyof Notes>(key: K, item: Notes[K][number]): void {
    const list = this.notes[key] as Notes[K][number][];
    if (list.length >= MAX_NOTES) list.shift();
    list.push(item);
  }

  protected why(prefixMatch: number, deficit: number, fallback: boolean): string {
    const order = fallback ? 'queue order (FCFS fallback)' : `prefix match ${prefixMatch}`;
    return `${order}, deficit ${deficit} > 0`;
  }

  /**
   * The record of admitting the request at scan position `position`: the scan order (first
   * MAX_ORDER entries, and this one) with what happened to each so far in this step, the clients
   * skipped and the refills since the previous admission record.
   */
  private detail(scan: Scan, position: number, pass: number, worker: WorkerView) {
    const items = this.queue.items;
    const entries: DlpmOrderEntry[] = [];
    const entry = (k: number): DlpmOrderEntry => {
      const i = scan.order[k];
      const r = items[i];
      const e: DlpmOrderEntry = {
        request: r.id,
        client: this.clients[r.client],
        prefix_match: scan.match[i],
        deficit: scan.seen[i] === SEEN_NONE ? this.deficits[r.client] : scan.deficit[i],
      };
      if (k === position) {
        // the match admission is about to make (an earlier admission of this step may have evicted
        // part of the prefix the sort saw)
        e.prefix_match = cachedPrefix(r, worker);
        e.outcome = 'admitted';
        e.charge = this.we * (r.promptLen - e.prefix_match);
      } else if (scan.seen[i] === SEEN_NO_DEFICIT) e.outcome = 'no-deficit';
      else if (scan.seen[i] === SEEN_NO_ROOM) e.outcome = 'no-room';
      else if (scan.seen[i] === SEEN_NONE) e.outcome = 'not-reached';
      // admitted earlier in this step: listed for the order, with no outcome of its own here
      return e;
    };
    const shown = Math.min(scan.order.length, MAX_ORDER);
    for (let k = 0; k < shown; k++) entries.push(entry(k));
    if (position >= shown) entries.push(entry(position));
    const notes = this.notes;
    const d: DlpmAdmitDetail = {
      algo: 'dlpm',
      worker: this.workerId,
      quantum: this.quantum,
      order: entries,
      skipped: notes.skipped,
      admitted: [items[scan.order[position]].id],
      scan_position: position,
      pass,
      waiting: scan.order.length,
      fcfs_fallback: scan.fallback,
    };
    if (notes.refills.length > 0) {
      d.refill = notes.refills[0];
      if (notes.refills.length > 1) d.refills = notes.refills;
    }
    return d;
  }

  // ---- views -------------------------------------------------------------------------------------

  waiting(limit: number): SimRequest[] {
    if (this.view === null) return this.queue.items.slice(0, limit);
    const { order } = prefixOrder(this.queue, this.view, this.fallbackAbove);
    const out: SimRequest[] = [];
    for (let k = 0; k < order.length && k < limit; k++) out.push(this.queue.items[order[k]]);
    return out;
  }

  clientState(): ClientPolicyState {
    return { kind: 'deficit', deficit: Array.from(this.deficits) };
  }

  /** U = w_e·L_input + w_q·M and Theorem 4.1's bound 2·(U + Q^u), with the inputs used. */
  bound(): { bound: number; U: number; quantum: number; L_input: number; M: number } {
    const m = this.view === null ? 0 : this.view.kv.totalBlocks * this.view.kv.blockSize;
    const u = this.we * this.maxPrompt + this.wq * m;
    return { bound: 2 * (u + this.quantum), U: u, quantum: this.quantum, L_input: this.maxPrompt, M: m };
  }

  describe(): DlpmState {
    const d: DlpmState = {
      ...this.bound(),
      weights: { input: this.we, output: this.wq },
      refills: this.refills,
      deficits: Object.fromEntries(this.list.map((c) => [this.clients[c], this.deficits[c]])),
    };
    if (this.quantumPerRequest) d.quantum_per_request = true;
    return d;
  }
}
