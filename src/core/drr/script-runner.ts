/**
 * Runs an arbitration script (the DRR sandbox) on a PolicyQueue, with no cluster model: enqueue ops
 * add requests, pop ops arbitrate with the named classes' heads blocked. Used by the `arbitrate`
 * CLI (all at once) and by the browser sandbox (one step at a time, in a Web Worker: everything that
 * comes out is plain data).
 */
import { profileIndexFor, profileList } from './classify';
import { overdueMs, PolicyQueue } from './policy-queue';
import { type QueuedRequestView, queuedRequestView } from './queued-view';
import type {
  ArbitrationScript,
  ClassState,
  DrrPopRecord,
  DrrSnapshot,
  DynamoRelease,
  EnqueueResult,
  Profile,
  QueuedRequest,
  ScriptOp,
  ScriptOutputLine,
} from './types';

/** One executed step: an enqueue, or one arbitration of a pop op (a `count: N` pop is N steps). */
export interface StepResult {
  opIndex: number;
  /** 0-based repetition within a pop op with `count`. */
  repeat: number;
  line: ScriptOutputLine;
  record: DrrPopRecord | null;
  enqueue: EnqueueResult | null;
}

/** The whole state of an ArbitrationSession (the playground wraps it into a SandboxSnapshot). */
export interface ArbitrationSnapshot extends DrrSnapshot {
  /** Each class's waiting requests in the order they would leave, in ring order. */
  queues: { class: string; requests: QueuedRequestView[] }[];
  /** Output lines so far (same as the CLI's). */
  log: ScriptOutputLine[];
  /** Index of the next op to run (ops.length when done). */
  next_op: number;
  steps_done: number;
  total_steps: number;
  last_record: DrrPopRecord | null;
  /** Classes blocked in the most recent pop. */
  blocked_now: string[];
}

/** The profile the whole script arbitrates: the one its first enqueue resolves to. */
export function scriptProfileIndex(script: ArbitrationScript): number {
  const first = script.ops.find((op) => op.kind === 'enqueue');
  return first && first.kind === 'enqueue' ? profileIndexFor(profileList(script.policy), first.model) : 0;
}

export function totalSteps(ops: readonly ScriptOp[]): number {
  let n = 0;
  for (const op of ops) n += op.kind === 'pop' ? op.count : 1;
  return n;
}

/**
 * A session as the playground steps it: a preloading script (`preload: true`) has run its leading
 * enqueues already, so step 1 is its first pop. `preloaded` counts those enqueues.
 */
export function playgroundSession(
  script: ArbitrationScript,
  opts: { record?: boolean } = {},
): { session: ArbitrationSession; preloaded: number } {
  const session = new ArbitrationSession(script, opts);
  return { session, preloaded: script.preload ? session.runPreload() : 0 };
}

export class ArbitrationSession {
  private readonly queue: PolicyQueue<null>;
  private readonly profiles: readonly Profile[];
  /** The profile shown by snapshots: the script's, then the one of the most recent pop. */
  private profileIndex: number;
  private opIndex = 0;
  private repeat = 0;
  private steps = 0;
  private readonly total: number;
  private readonly log: ScriptOutputLine[] = [];
  private lastRecord: DrrPopRecord | null = null;
  private blocked: string[] = [];
  private busyWorkers: number[] = [];

  private readonly record: boolean;

  /** The release line the script models (its `release`, default v1.6). */
  get release(): DynamoRelease {
    return this.script.release ?? 'v1.6';
  }

  /** `record: false` skips the decision records (StepResult.record is then null): the CLI's fast path. */
  constructor(
    private readonly script: ArbitrationScript,
    opts: { record?: boolean } = {},
  ) {
    this.record = opts.record !== false;
    this.queue = new PolicyQueue<null>(script.policy, {
      workers: script.workers,
      variant: script.variant,
      lanes: (script.release ?? 'v1.6') !== 'v1.3',
    });
    this.profileIndex = scriptProfileIndex(script);
    this.profiles = this.queue.profiles();
    this.total = totalSteps(script.ops);
  }

  done(): boolean {
    return this.opIndex >= this.script.ops.length;
  }

  /**
   * Run the enqueue ops before the first pop (what `preload: true` asks of the playground) and return
   * how many ran. They are ordinary steps of this session; a caller that hides them from its step
   * count subtracts them.
   */
  runPreload(): number {
    let n = 0;
    const ops = this.script.ops;
    while (this.opIndex < ops.length && ops[this.opIndex].kind === 'enqueue' && this.step()) n++;
    return n;
  }

  step(): StepResult | null {
    const ops = this.script.ops;
    // Skip pop ops with count 0 (the parser forbids them, but be safe).
    while (this.opIndex < ops.length) {
      const op = ops[this.opIndex];
      if (op.kind === 'pop' && this.repeat >= op.count) {
        this.opIndex++;
        this.repeat = 0;
        continue;
      }
      break;
    }
    if (this.opIndex >= ops.length) return null;
    const op = ops[this.opIndex];
    const opIndex = this.opIndex;
    let result: StepResult;
    if (op.kind === 'enqueue') {
      const res = this.queue.enqueue({ ...op, payload: null });
      const line: ScriptOutputLine = res.accepted
        ? { op: 'enqueue', id: op.id, class: res.ref.className, accepted: true }
        : {
            op: 'enqueue',
            id: op.id,
            class: res.ref.className,
            accepted: false,
            reason: res.reason,
            current: res.current,
            limit: res.limit,
          };
      result = { opIndex, repeat: 0, line, record: null, enqueue: res };
      this.opIndex++;
    } else {
      const blocked = new Set(op.blocked);
      this.blocked = [...op.blocked];
      if (op.model !== null) this.profileIndex = profileIndexFor(this.profiles, op.model);
      else this.profileIndex = scriptProfileIndex(this.script);
      const busy = new Set(op.busyWorkers ?? []);
      this.busyWorkers = [...busy];
      const isDispatchable = dispatchTest(blocked, busy, this.script.workers);
      const now = op.at ?? undefined;
      const popped = this.queue.pop(isDispatchable, {
        profileIndex: this.profileIndex,
        record: this.record,
        now,
      });
      const snap = this.queue.snapshot(this.profileIndex);
      const deficits = snap.classes.map((c) =>
        c.deficit_exact !== undefined
          ? { class: c.name, deficit: c.deficit, exact: c.deficit_exact }
          : { class: c.name, deficit: c.deficit },
      );
      const req = popped.request;
      const line: ScriptOutputLine = req
        ? {
            op: 'pop',
            id: req.id,
            class: req.ref.className,
            cost: req.ref.cost,
            deficits,
            cursor: snap.cursor,
            carry: snap.carry,
          }
        : { op: 'pop', id: null, deficits, cursor: snap.cursor, carry: snap.carry };
      if (popped.expired.length > 0 && now !== undefined)
        line.expired = popped.expired.map((e) => ({
          id: e.id,
          class: e.ref.className,
          // Milliseconds past the due time, truncated (a due time equal to the pop's time is live).
          overdue_ms: overdueMs(now, e.due ?? now),
        }));
      result = { opIndex, repeat: this.repeat, line, record: popped.record, enqueue: null };
      this.lastRecord = popped.record;
      this.repeat++;
      if (this.repeat >= op.count) {
        this.opIndex++;
        this.repeat = 0;
      }
    }
    this.steps++;
    this.log.push(result.line);
    return result;
  }

  /** Run every remaining step; returns their output lines. */
  runToEnd(): ScriptOutputLine[] {
    const out: ScriptOutputLine[] = [];
    for (let s = this.step(); s; s = this.step()) out.push(s.line);
    return out;
  }

  snapshot(): ArbitrationSnapshot {
    const test = dispatchTest(new Set(this.blocked), new Set(this.busyWorkers), this.script.workers);
    const drr = this.queue.snapshot(this.profileIndex, test);
    return {
      ...drr,
      queues: drr.classes.map((c) => ({
        class: c.name,
        requests: this.queue.classQueue(c.name, this.profileIndex).map((r) => queuedRequestView(r, null)),
      })),
      log: [...this.log],
      next_op: this.opIndex,
      steps_done: this.steps,
      total_steps: this.total,
      last_record: this.lastRecord,
      blocked_now: [...this.blocked],
    };
  }
}

/**
 * The sandbox's dispatchability: a head of a blocked class never leaves; a pinned head leaves when
 * its worker is not busy; an unpinned head when some worker is not busy (Dynamo's pool test: busy
 * only when every eligible worker is).
 */
function dispatchTest(blocked: Set<string>, busy: Set<number>, workers: number) {
  const poolBusy = busy.size > 0 && Array.from({ length: workers }, (_, w) => w).every((w) => busy.has(w));
  return (h: QueuedRequest<null>, cls: ClassState) =>
    !blocked.has(cls.name) && (h.worker >= 0 ? !busy.has(h.worker) : !poolBusy);
}

/** Run a whole script; one output line per enqueue and per arbitration. */
export function runScript(script: ArbitrationScript): ScriptOutputLine[] {
  return new ArbitrationSession(script, { record: false }).runToEnd();
}

/** JSON text of an output line with the contract's key order (deficits in declaration order). */
export function outputLineJson(line: ScriptOutputLine): string {
  const s = JSON.stringify;
  if (line.op === 'enqueue') {
    let out = `{"op":"enqueue","id":${s(line.id)},"class":${s(line.class)},"accepted":${line.accepted}`;
    if (!line.accepted) out += `,"reason":${s(line.reason)},"current":${line.current},"limit":${line.limit}`;
    return `${out}}`;
  }
  // A deficit above 2^53 - 1 is printed with every digit (a JSON number; exact in readers with 64-bit ints).
  const deficits = `{${line.deficits.map((d) => `${s(d.class)}:${d.exact ?? d.deficit}`).join(',')}}`;
  const head =
    line.id === null
      ? `{"op":"pop","id":null`
      : `{"op":"pop","id":${s(line.id)},"class":${s(line.class)},"cost":${line.cost}`;
  const expired = line.expired ? `,"expired":${s(line.expired)}` : '';
  return `${head},"deficits":${deficits},"cursor":${s(line.cursor)},"carry":${s(line.carry)}${expired}}`;
}
