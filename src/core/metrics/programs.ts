/**
 * Program-level latency, as the DLPM paper measures it (§6.1): the end-to-end completion time of a
 * whole program instance (a Tree-of-Thoughts tree, a judge's branches and merge, a conversation, a
 * document's questions), from the moment the client started it until its last request finished.
 *
 * A program is open while it has requests in flight or follow-ups announced but not yet submitted
 * (a chat turn waiting out its think time, a tree child not yet at the router). The engine announces
 * a follow-up when the workload hands it over (`announce`), so the count never touches zero between
 * a parent's completion and its child's submission. A program with a rejected request never
 * completes (the workload abandons what depended on it) and is counted as `failed`, not timed.
 * Memory is bounded by the programs in flight: a finished program's entry is dropped.
 */
import { FloatList } from './float-list';

interface OpenProgram {
  client: number;
  start: number;
  /** Requests submitted and not finished, plus follow-ups announced and not yet submitted. */
  open: number;
  failed: boolean;
}

export class ProgramTracker {
  private readonly live = new Map<string, OpenProgram>();
  /** Request ids announced as follow-ups, not yet submitted. */
  private readonly announced = new Set<string>();
  /** Per client: end-to-end seconds of each completed program. */
  readonly e2e: FloatList[];
  readonly failed: Int32Array;

  constructor(n: number) {
    this.e2e = Array.from({ length: n }, () => new FloatList());
    this.failed = new Int32Array(n);
  }

  /** The workload handed over a follow-up request of `program` (to be submitted at a later event). */
  announce(program: string, requestId: string, client: number, t: number): void {
    if (this.announced.has(requestId)) return;
    this.announced.add(requestId);
    this.open(program, client, t).open++;
  }

  /** A request of `program` was submitted at t (its program starts with its first request). */
  submit(program: string, requestId: string, client: number, t: number): void {
    if (this.announced.delete(requestId)) return;
    this.open(program, client, t).open++;
  }

  /** A request of `program` finished at t (completed, or rejected: `ok` false). */
  finish(program: string, t: number, ok: boolean): void {
    const p = this.live.get(program);
    if (p === undefined) return;
    if (!ok) p.failed = true;
    p.open--;
    if (p.open > 0) return;
    this.live.delete(program);
    if (p.failed) this.failed[p.client]++;
    else this.e2e[p.client].push(t - p.start);
  }

  /** Programs started and not finished yet. */
  get inFlight(): number {
    return this.live.size;
  }

  private open(program: string, client: number, t: number): OpenProgram {
    let p = this.live.get(program);
    if (p === undefined) {
      p = { client, start: t, open: 0, failed: false };
      this.live.set(program, p);
    }
    return p;
  }
}
