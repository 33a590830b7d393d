/**
 * fcfs-mpq, Preble's own worker-local scheduler (WukLab/preble's SGLang fork, `schedule_heuristic:
 * fcfs-mpq`, the setting every Preble experiment config uses). Written from reading that code:
 *
 *   - Ten priority groups. At the start of a step every request that joined the queue since the last
 *     step (new or preempted) is put in a group by its cache hit ratio on this worker at that moment,
 *     h = cached prefix / prompt: group 0 when h = 0, else ⌈10·h⌉ − 1 (so (0, 10 %] is group 0 too and
 *     (90 %, 100 %] group 9). A request keeps its group until it is admitted.
 *   - One group per step, in round robin from group 9 down to 0 and around, skipping empty groups;
 *     the pointer moves past the group served whether or not anything from it fits.
 *   - Inside the group: oldest arrival first (Preble sorts the group by arrival time each step), at
 *     most (g + 1) × k admissions in the step (k = 10, `scheduler.mpq_k`); a request that does not fit
 *     in KV memory is passed over and the next one tried (no head-of-line stop), except one that
 *     passes the first memory check (made while its cached prefix still counts as evictable) and
 *     fails it once that prefix is locked: Preble's schedule_within_group ends the group's scan there
 *     (`break` after `inc_lock_ref`), and so does this. The step's token budget ends the scan too
 *     (Preble tests it first, at the top of each iteration).
 *   - Preble's prefill cap: a request whose uncached prompt plus the prefill tokens this scan has
 *     already admitted in the step reaches `max_prefill_num_token` is passed over too, and the scan
 *     goes on (its condition sits beside the memory check, with no `break`). The cap is Preble's
 *     default, the larger of the model's context length and a sixth of the KV pool in tokens, or
 *     `scheduler.mpq_max_prefill_tokens`. The admitted tokens counted are each admission's first
 *     chunk (Preble adds `num_inflight_tokens`, its chunk under the step's budget). The first
 *     admission of a step is never capped: in Preble the cap is at least the context length, which
 *     every prompt it accepts is shorter than; here a longer prompt (or a cap set below it) would
 *     otherwise wait for ever.
 *   - No running-request limit: Preble's scan counts no running requests, and its chunked-prefill
 *     step (the one its experiments configure, `chunk_prefill_budget`) checks none before it; the
 *     worker does not apply `cluster.max_running` under this policy (`noRunningLimit`).
 *   - Preble's non-chunked step (`wholePrefillStep`): while at least half of the KV pool is free, a
 *     step offers admissions first, whole prompts with no token budget, and runs only the prefills
 *     it admitted; when it admits nothing, up to ten decode steps follow without a scan, until the
 *     stream interval flushes output or a request completes (the worker runs this, see
 *     ../../replica/local-policy.ts). Its one other check, no fill while more requests run than
 *     half the pool's tokens, is left out: it would take a running request per two tokens of KV.
 * High-hit groups get more admissions per visit (locality), but every group gets a turn (no
 * starvation): the multi-level queue the DLPM paper credits for Preble's Jain's index over RR+LPM.
 *
 * This class is the reference (O(group) to file a request, a step scans its group and tries every
 * request in it); the descriptor runs ./live-policy.ts, which makes the same decisions and records
 * at O(log n) per request it files, admits or tries.
 */
import type { ModelProfile } from '../../cost';
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import { cachedPrefix } from '../shared/prefix-order';
import type { FcfsMpqDetail } from './detail';

/** Priority groups (Preble: 10). */
export const MPQ_GROUPS = 10;
/** A step serving group g admits at most (g + 1) × MPQ_K requests (Preble's k). */
export const MPQ_K = 10;

/**
 * Context lengths (the models' `max_position_embeddings`, which SGLang reads as `context_len`), for
 * Preble's default prefill cap.
 */
const CONTEXT_TOKENS: Readonly<Record<string, number>> = {
  'llama-3.1-8b': 131_072,
  'llama-3.2-3b': 131_072,
  'qwen3-14b': 40_960,
};

/**
 * Preble's default `max_prefill_num_token`: the larger of the model's context length (0 for a model
 * not listed) and a sixth of the KV pool's tokens.
 */
export function preblePrefillCap(model: ModelProfile, kvTokens: number): number {
  return Math.max(CONTEXT_TOKENS[model.id] ?? 0, Math.floor(kvTokens / 6));
}

/** Prompt tokens of `req` not cached on the worker now (what Preble calls extend_input_len). */
export function uncachedNow(req: SimRequest, worker: WorkerView): number {
  return req.promptLen - cachedPrefix(req, worker);
}

/** Preble's group of a request with hit ratio `h` in [0, 1]. */
export function mpqGroup(h: number): number {
  if (h <= 0) return 0;
  return Math.min(MPQ_GROUPS - 1, Math.max(0, Math.ceil(h * MPQ_GROUPS) - 1));
}

/**
 * After `tryAdmit` said 'no-kv': whether the request had passed the first check (made with its
 * cached path still evictable) and was refused only once that path was locked. Preble's
 * schedule_within_group passes over a request that fails its first check and ends the group's scan
 * at one that fails the check after `inc_lock_ref`. A refused try leaves free + evictable KV and the
 * request's match as they were, so the first check can be made again here.
 */
export function failedOnceLocked(req: SimRequest, worker: WorkerView): boolean {
  return worker.refusalKey(req, cachedPrefix(req, worker)) <= worker.refusalRoom();
}

interface Entry {
  req: SimRequest;
  /** Hit ratio when it was filed. */
  ratio: number;
}

/** Arrival order, ties by the request's creation order. */
export function arrivalBefore(a: SimRequest, b: SimRequest): boolean {
  return a.arrivalT < b.arrivalT || (a.arrivalT === b.arrivalT && a.serial < b.serial);
}

/** What a snapshot shows of FCFS-MPQ: requests per group, the group visited next, and k. */
export interface FcfsMpqState {
  groups: number[];
  next_group: number;
  k: number;
}

/** Test-only: `reference` makes the descriptor build this class instead of the live one (./live-policy.ts). */
export const fcfsMpqImplementation = { reference: false };

export class FcfsMpqPolicy implements LocalPolicy {
  readonly name = 'fcfs-mpq';
  /** Preble's runtime has no running-request limit (see above). */
  readonly noRunningLimit = true;
  /** Joined since the last step, not yet filed in a group. */
  private pending: SimRequest[] = [];
  private readonly groups: Entry[][] = Array.from({ length: MPQ_GROUPS }, () => []);
  /** The group the round robin looks at next. */
  protected cursor = MPQ_GROUPS - 1;
  private total = 0;

  /**
   * @param maxPrefill Preble's `max_prefill_num_token`; null: its default for the worker's model and
   *   KV pool (preblePrefillCap).
   */
  constructor(
    protected readonly workerId: number,
    protected readonly k: number = MPQ_K,
    private readonly maxPrefill: number | null = null,
  ) {}

  /**
   * After a non-chunked step that admits nothing, Preble's forward_step decodes up to 10 steps in a
   * row without reading its queue, stopping once output is flushed: SGLang's stream_interval (8)
   * flushes when the decode counter reaches a multiple of it.
   */
  readonly decodeRun = { steps: 10, streamInterval: 8 };

  /**
   * Preble's budget_forward_step hands the step to its non-chunked forward_step while at least half
   * of the KV pool is free (free slots only: cached prefixes, evictable or not, count as used).
   */
  wholePrefillStep(worker: WorkerView): boolean {
    return worker.kv.freeBlocks * 2 >= worker.kv.totalBlocks;
  }

  /** The prefill cap on `worker` (fixed for a worker). */
  protected prefillCap(worker: WorkerView): number {
    return this.maxPrefill ?? preblePrefillCap(worker.model, worker.kv.totalBlocks * worker.kv.blockSize);
  }

  size(): number {
    return this.total;
  }

  enqueue(req: SimRequest, _worker: WorkerView, _front: boolean): void {
    // Preble puts new and preempted requests alike in its forward queue; both are filed next step
    this.pending.push(req);
    this.total++;
  }

  /** The group a waiting request is in (-1 while not yet filed; for tests and the UI). */
  groupOf(req: SimRequest): number {
    for (let g = 0; g < MPQ_GROUPS; g++) if (this.groups[g].some((e) => e.req === req)) return g;
    return -1;
  }

  /** The group the next step will look at first. */
  get nextGroup(): number {
    return this.cursor;
  }

  private file(worker: WorkerView): void {
    for (const req of this.pending) {
      const ratio = req.promptLen > 0 ? cachedPrefix(req, worker) / req.promptLen : 0;
      const list = this.groups[mpqGroup(ratio)];
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (arrivalBefore(req, list[mid].req)) hi = mid;
        else lo = mid + 1;
      }
      list.splice(lo, 0, { req, ratio });
    }
    this.pending = [];
  }

  /** Requests filed in group `g`. */
  protected groupSize(g: number): number {
    return this.groups[g].length;
  }

  /** Preble's get_schedule_group: the next non-empty group from the cursor down, or -1. */
  protected pick(skipped: number[] | null): number {
    for (let i = 0; i < MPQ_GROUPS; i++) {
      const g = this.cursor;
      this.cursor = (this.cursor + MPQ_GROUPS - 1) % MPQ_GROUPS;
      if (this.groupSize(g) > 0) return g;
      skipped?.push(g);
    }
    return -1; // all empty: the cursor went once around and is back where it started
  }

  admit(ctx: AdmissionContext): void {
    this.file(ctx.worker);
    const skipped: number[] | null = ctx.recording ? [] : null;
    const sizes = ctx.recording ? this.groups.map((l) => l.length) : null;
    const g = this.pick(skipped);
    if (g < 0) return;
    const list = this.groups[g];
    const limit = (g + 1) * this.k;
    const cap = this.prefillCap(ctx.worker);
    let admitted = 0;
    let passed = 0;
    /** Prefill tokens this scan's admissions take in this step. */
    let stepPrefill = 0;
    let gone: Uint8Array | null = null;
    for (let i = 0; i < list.length && admitted < limit; i++) {
      if (ctx.budgetLeft <= 0) break;
      const e = list[i];
      if (stepPrefill > 0 && uncachedNow(e.req, ctx.worker) + stepPrefill >= cap) {
        passed++; // over the prefill cap: passed over, untouched
        continue;
      }
      const outcome = ctx.recording
        ? ctx.tryAdmit(e.req, `group ${g} (hit ratio ${(e.ratio * 100).toFixed(0)}%), oldest first`, {
            algo: 'fcfs-mpq',
            worker: this.workerId,
            group: g,
            group_sizes: sizes as number[],
            skipped_empty: skipped as number[],
            limit,
            hit_ratio: e.ratio,
            cached: cachedPrefix(e.req, ctx.worker),
            rank: i,
            admitted_before: admitted,
            passed_over: passed,
          } satisfies FcfsMpqDetail)
        : ctx.tryAdmit(e.req);
      if (outcome === 'admitted') {
        if (gone === null) gone = new Uint8Array(list.length);
        gone[i] = 1;
        admitted++;
        stepPrefill += e.req.chunk;
      } else if (outcome === 'no-kv' && !failedOnceLocked(e.req, ctx.worker)) passed++;
      else break; // refused once its path was locked, or the step's token budget is spent
    }
    if (gone === null) return;
    const g2 = gone;
    this.groups[g] = list.filter((_, i) => g2[i] === 0);
    this.total -= admitted;
  }

  waiting(limit: number): SimRequest[] {
    const out: SimRequest[] = [];
    for (let i = 0; i < MPQ_GROUPS && out.length < limit; i++) {
      const g = (this.cursor + MPQ_GROUPS - i) % MPQ_GROUPS;
      for (const e of this.groups[g]) {
        if (out.length >= limit) break;
        out.push(e.req);
      }
    }
    for (const r of this.pending) {
      if (out.length >= limit) break;
      out.push(r);
    }
    return out;
  }

  describe(): FcfsMpqState {
    return {
      groups: Array.from({ length: MPQ_GROUPS }, (_, g) => this.groupSize(g)),
      next_group: this.cursor,
      k: this.k,
    };
  }
}
