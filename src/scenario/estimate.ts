/**
 * The work and memory a scenario would take, estimated before it runs (#15.3), and the budgets the
 * page and the command line hold it to. A scenario that validates could otherwise exhaust a tab or a
 * terminal (2 clients × 10,000 req/s × 60 s on one worker grew to 13 GB): validation refuses it with
 * the numbers instead.
 *
 * The estimate is deliberately simple and errs on the side of more work: every request's prompt is
 * counted as prefilled in full (no prefix-cache hits), requests are served at the roofline model's
 * best rate (full prefill chunks, a full decode batch), and the queue is what arrivals exceed that
 * rate by at the end of the arrival window.
 *
 * Memory, as measured on the engine (heap plus array buffers after a full GC): a queued request holds
 * about 0.9 kB of records and no prompt-sized array (#15.3). A trace request's prompt is described by
 * its row (src/core/trace/prompt.ts), a program's by a chain of id-stream segments
 * (src/core/workload/prompt.ts): a backlog of 7,900 single-program requests of 4,096 prompt tokens
 * grew the heap by 138 MB with ids held, 7 MB now; the Mooncake trace at 50× speed 79 MB before its
 * rows were described, 11 MB after. Page fingerprints (8 bytes per page: 0.5 bytes per token with
 * 16-token blocks) are what remains: a request being served holds its own; a queued follow-up (a
 * chat turn, a tree's child, a judge's branch, a question on a document) reaches those of the context
 * its program shares (tests/unit/sim/queued-memory.test.ts measures 0.1–0.2 bytes per token); and the
 * local orders that walk every waiting request's prefix at each step (LPM, DLPM, DFS-weight) keep
 * every queued request's own (0.44). The estimate charges 1.25 kB per queued or running request, +
 * `queuedBytesPerToken` per prompt token of a queued one, + 8 bytes per page of prompt of a running one,
 * 128 bytes per finished one (latency samples), and 2 × 8 bytes per KV-cache page of every worker (the
 * cached pages' fingerprints, and the slabs or page arrays that cached edges keep alive).
 *
 * A trace-driven scenario (`trace:`, or clients with their own `trace:`) counts the traces' rows when they are known (the page's dropped
 * file, the command line once it has read the file): the rows its window replays, with their own
 * prompt and output lengths. Before the file is read only `trace.max_requests` bounds them; without
 * it the estimate says that the trace is not counted.
 */
import { schedulerAlgorithm } from '../core/algorithms';
import { GPUS, MODELS } from '../core/cost/index';
import { decodeShape, prefillTimeS, stepTimeS } from '../core/cost/roofline';
import { meanOf } from '../core/workload/lengths';
import { expectedRequests, peakContextTokens, programRequests } from '../core/workload/size';
import type { ScenarioInputSchema } from './schema';
import { selectRows } from '../core/trace/workload';
import type { TraceReplayOptions } from '../core/trace/types';
import type { TraceSpec } from './trace-schema';
import type { TraceTable } from '../core/trace/types';
import type { z } from 'zod';
import type { CompiledPolicy } from '../core/drr/types';

type Parsed = z.output<typeof ScenarioInputSchema>;

export interface RunBudget {
  /** Heap the simulation may use, MB. */
  memoryMb: number;
  /** Simulator events (a proxy for time: about 250,000 per second on a 2-core machine). */
  events: number;
  /** Whose budget, for the message ("the page's", "the command line's"). */
  owner: string;
  /** How to raise it, for the message. */
  raise: string;
}

/** The playground tab: 4 GB per tab leaves about 1 GB for the simulation beside the UI and restore points. */
export const PAGE_BUDGET: RunBudget = {
  memoryMb: 1024,
  events: 100_000_000,
  owner: "the page's",
  raise: 'or run it from the command line (npx fairground run), which allows more',
};

/** The command line on a 2-core, 4 GB machine; `run --max-memory-mb N --max-events N` raises it. */
export const CLI_BUDGET: RunBudget = {
  memoryMb: 1536,
  events: 1_000_000_000,
  owner: "the command line's",
  raise: 'or raise the budget with --max-memory-mb / --max-events',
};

export interface RunEstimate {
  requests: number;
  /** Requests waiting at the end of the arrival window. */
  peakQueue: number;
  /** Requests per second the cluster can serve at best. */
  capacityRps: number;
  /** Simulated time until the queue drains, seconds. */
  simTimeS: number;
  /**
   * The work, in simulator events: the events themselves plus, under an order that walks every
   * waiting request's prefix at each step (its descriptor's `walkedPerStep`; LPM, DLPM and
   * DFS-weight did before their orders were kept live, #15, and now declare 0), those walks at
   * WALK_EVENTS each, and the lock walks of prompts prefilled in small chunks (`chainEvents`).
   */
  events: number;
  /** Of which waiting-request walks (0 for orders that cost O(log n) per step). */
  walks: number;
  /**
   * Of `events`, the radix-cache lock walks of chunked prefills, in events: under sglang admission
   * each chunk's whole pages join the prefix cache as a node below the previous chunk's, and the
   * request's lock moves there, walking the path to the root both ways, so a prompt prefilled in k
   * such chunks visits about k² nodes (negligible for chunks of thousands of tokens; a 400,000-token
   * prompt in 4-token chunks is 25,000 nodes deep and takes ~7 s on its own).
   */
  chainEvents: number;
  /** Of `events`, the router's work per policy class: each request's pop visits every class. */
  classEvents: number;
  /** The router policy's classes counted (see `classEvents`; their memory is in `memoryMb`). */
  policyClasses: number;
  memoryMb: number;
  /** The scenario replays a trace whose rows were not known (not read yet, no max_requests). */
  traceUncounted: boolean;
}

const FINISHED_BYTES = 128;
const QUEUED_BYTES = 1250;
/** Page fingerprints: key and check (src/core/replica/pages.ts). */
const BYTES_PER_PAGE = 8;
/**
 * One waiting request's prefix walk, in events: measured on one a10g under a 2 × 500 req/s overload
 * (bench/lrs-overload.yaml at duration_s 4, the queue ~2,000): LPM took ~9× FCFS's wall time, DLPM
 * ~14×, for ~1.5e8 estimated walks, about 0.03–0.05 events each; doubled to err on more work.
 */
const WALK_EVENTS = 0.1;

/**
 * Radix nodes a lock walk visits per event: ~12 ns a visit (measured: a 200,000-token prompt in
 * 16-token chunks, 1.6e8 visits in ~1.9 s; 400,000 tokens in 4-token chunks, 6.3e8 in ~7.3 s)
 * against the ~4 µs an event is taken to cost; about two thirds of that ratio, to err on more work.
 */
const CHAIN_VISITS_PER_EVENT = 200;

/**
 * Memory per policy class at the router: its Class service series (6 rows of up to 512 samples, ~32 kB
 * of heap) and what the per-pop updates over every class leave for the collector; measured as a
 * process's peak: 10,000 classes took 1.5 GB with 6,050 requests and 1.9 GB with 60,000, 10 classes
 * 0.15 GB.
 */
const BYTES_PER_CLASS = 128_000;
/**
 * Classes visited per event by the router's DRR scan and class bookkeeping, one pass per request:
 * measured ~0.18 µs a class (10,000 classes: ~1.8 ms a request) against the ~4 µs an event is taken
 * to cost; about half that ratio, to err on more work.
 */
const CLASS_VISITS_PER_EVENT = 10;

/**
 * A page in the router's global prefix tree (Preble's and DoubleQ's routers: a node per page of every
 * prompt dispatched, kept until each worker holding it evicts it): measured ~470 B of heap a page
 * (64 workers, 100k–400k-token prompts: 3.0 million pages in 1.39 GB; the run peaked at 4.4 GB
 * where the estimate said 39 MB).
 */
const GLOBAL_TREE_BYTES_PER_PAGE = 480;

/** A compiled policy's classes, each name once (the Class service rows), 0 without a policy. */
export function policyClassCount(policy: CompiledPolicy | null | undefined): number {
  if (!policy) return 0;
  const names = new Set<string>();
  for (const p of [...(policy.root ? [policy.root] : []), ...policy.models])
    for (const c of p.classes) names.add(c.name);
  return names.size;
}

/**
 * Bytes per prompt token a queued request keeps (#15.3): none of its own, as its prompt is described
 * (a trace row, a program's chain of segments), unless the scheduler's order walks every waiting
 * request's prefix (it keeps their page fingerprints) or, for a program whose requests extend a
 * shared context (every type but `single`), the page fingerprints of that context. `source`: the
 * program type, or 'trace' / 'scripted'.
 */
export function queuedBytesPerToken(scheduler: string, source: string, blockSize: number): number {
  const pages = BYTES_PER_PAGE / blockSize;
  if (schedulerAlgorithm(scheduler)?.walkedPerStep !== undefined) return pages;
  return source === 'trace' || source === 'scripted' || source === 'single' ? 0 : pages;
}
/** Cached pages: their fingerprints, and what cached edges keep alive around them. */
const BYTES_PER_KV_PAGE = 16;
/** Events per request besides batch steps (arrival, dispatch, admission, completion). */
const EVENTS_PER_REQUEST = 4;

export function estimateRun(
  s: Pick<Parsed, 'cluster' | 'clients' | 'requests' | 'duration_s'> & {
    trace?: Parsed['trace'];
    /** The worker-local scheduler (default: FCFS): whether it keeps waiting requests' fingerprints. */
    scheduler?: { policy: string };
    /** How replicas admit (default sglang): sglang caches each prefill chunk as it completes. */
    worker?: { admission: string };
    /** The router policy's classes (`policyClassCount`), once it is compiled; 0 or absent: none. */
    policyClasses?: number;
    /** The router: Preble's and DoubleQ's keep a global prefix tree of the prompts they dispatch. */
    router?: { routing: string };
  },
  /**
   * The top-level trace's rows, when the caller has read them (else only trace.max_requests counts);
   * a trace client's rows are its `trace.data` once read.
   */
  traceData: TraceTable | null = null,
): RunEstimate {
  const c = s.cluster;
  const gpu = GPUS[c.gpu];
  const model = MODELS[c.model];
  const clientRequests = expectedRequests(s.clients, s.duration_s);
  const scripted = s.requests.length;
  // the traces' rows: counted exactly when known, else bounded by max_requests, else not counted
  let traceRequests = 0;
  let tracePrompt = 0;
  let traceOutput = 0;
  let traceUncounted = false;
  const count = (data: TraceTable | null, tr: Parameters<typeof windowOf>[0]): void => {
    if (data !== null) {
      const { rows } = selectRows(data, windowOf(tr), s.duration_s);
      traceRequests += rows.length;
      for (let k = 0; k < rows.length; k++) {
        tracePrompt += data.input[rows[k]];
        traceOutput += data.output[rows[k]];
      }
    } else if (tr.max_requests !== undefined) {
      traceRequests += tr.max_requests;
      // lengths unknown: charge the prompt and output of an average Mooncake conversation request
      tracePrompt += tr.max_requests * 12_000;
      traceOutput += tr.max_requests * 350;
    } else traceUncounted = true;
  };
  if (s.trace !== undefined) count(traceData, s.trace);
  for (const cl of s.clients) if ('trace' in cl) count(cl.trace.data, cl.trace);
  const requests = clientRequests + scripted + traceRequests;

  // Mean work of one request: prompt tokens to prefill (all of them) and output tokens to decode;
  // the bytes per prompt token a queued one keeps, summed over prompt tokens
  const scheduler = s.scheduler?.policy ?? 'fcfs';
  const queuedPer = (source: string) => queuedBytesPerToken(scheduler, source, c.block_size);
  let promptSum = 0;
  let outputSum = 0;
  let weight = 0;
  let queuedPromptBytes = 0;
  // program instances: a program submits its next request when one finishes, so a backlog of
  // programs waits as about one request each (trace rows and scripted requests are one each)
  let programs = scripted + traceRequests;
  for (const cl of s.clients) {
    if (!('program' in cl)) continue;
    const peak = peakContextTokens(cl.program);
    const out = cl.program.type === 'single' ? meanOf(cl.program.output_tokens) : Math.min(peak / 4, 1024);
    const share = expectedRequests([cl], s.duration_s);
    programs += share / programRequests(cl.program);
    promptSum += Math.max(1, peak - out) * share;
    outputSum += Math.max(1, out) * share;
    weight += share;
    queuedPromptBytes += Math.max(1, peak - out) * share * queuedPer(cl.program.type);
  }
  for (const r of s.requests) {
    promptSum += r.prompt_tokens;
    outputSum += r.output_tokens;
    weight += 1;
    queuedPromptBytes += r.prompt_tokens * queuedPer('scripted');
  }
  queuedPromptBytes += tracePrompt * queuedPer('trace');
  promptSum += tracePrompt;
  outputSum += traceOutput;
  weight += traceRequests;
  const prompt = weight > 0 ? promptSum / weight : 1;
  const output = weight > 0 ? outputSum / weight : 1;

  // Best rates of one replica: full prefill chunks, a decode batch as large as KV and max_running allow.
  const chunk = Math.max(1, Math.min(c.max_batch_tokens, c.chunking.chunk_tokens));
  const prefillRate = chunk / Math.max(1e-6, prefillTimeS(gpu, model, chunk));
  const context = Math.max(1, prompt + output / 2);
  const batch = Math.max(1, Math.min(c.max_running, Math.floor(c.kv_cache_tokens / context)));
  const decodeStepS = Math.max(1e-6, stepTimeS(gpu, model, decodeShape(batch, context)));
  const decodeRate = batch / decodeStepS;
  const serviceS = prompt / prefillRate + output / decodeRate; // replica-seconds per request
  const capacityRps = c.workers / serviceS;

  const window = Math.max(s.duration_s, 1e-9);
  const peakQueue = Math.min(requests, Math.max(0, requests - capacityRps * window));
  const simTimeS = s.duration_s + peakQueue / capacityRps;
  const busyS = Math.min(simTimeS, requests / capacityRps);
  // Batch steps: full batches while the queue is long; at light load each request decodes almost
  // alone, one step per output token, and prefills one chunk per step, as many as the simulated time
  // holds of the shorter of those steps (a one-token chunk is far shorter than a long-context
  // decode: a cap by the decode step alone counted a tenth of the steps of 1M-token prompts under
  // max_batch_tokens: 1, and let a run ten times over the event budget start).
  const loneStepS = Math.max(1e-6, stepTimeS(gpu, model, decodeShape(1, context)));
  const shortestStepS = Math.max(1e-6, Math.min(loneStepS, prefillTimeS(gpu, model, chunk)));
  const lightSteps = Math.min(requests * (output + prompt / chunk), (c.workers * simTimeS) / shortestStepS);
  const steps = Math.max((c.workers * busyS) / decodeStepS, lightSteps);
  // an order that walks the waiting requests each step: the waiting requests average about half
  // their peak while they build up and drain, one per waiting program
  const waiting = requests > 0 ? (peakQueue * Math.min(1, programs / requests)) / 2 : 0;
  const walkedPerStep = schedulerAlgorithm(scheduler)?.walked(s.scheduler ?? {}, waiting) ?? 0;
  const walks = steps * walkedPerStep;
  // chunked prefills cached chunk by chunk (sglang admission): about k² node visits for k inserts
  const inserts = prompt / Math.max(chunk, c.block_size);
  const chunkCaching = c.prefix_caching && (s.worker?.admission ?? 'sglang') === 'sglang';
  const chainEvents =
    chunkCaching && inserts > 1 ? (requests * inserts * inserts) / CHAIN_VISITS_PER_EVENT : 0;
  // the router's policy-class queues: every request passes them, and a pop visits every class
  const classes = s.policyClasses ?? 0;
  const classEvents = (requests * classes) / CLASS_VISITS_PER_EVENT;
  const events = EVENTS_PER_REQUEST * requests + steps + walks * WALK_EVENTS + chainEvents + classEvents;
  // queued requests at the peak, and a full running batch on every worker, hold their records and
  // what `queuedBytesPerToken` says of their prompts; running ones their page fingerprints
  const running = Math.min(requests, c.workers * batch);
  const held = Math.min(requests, peakQueue + running);
  const queuedPerRequest = weight > 0 ? queuedPromptBytes / weight : 0;
  // the router's global prefix tree: the pages the workers cache, and the prompts dispatched to them
  const routing = s.router?.routing;
  const treePages =
    routing === 'preble' || routing === 'doubleq'
      ? c.workers * (c.kv_cache_tokens / c.block_size) + held * (prompt / c.block_size)
      : 0;
  const memoryMb =
    (requests * FINISHED_BYTES +
      held * (QUEUED_BYTES + queuedPerRequest) +
      running * BYTES_PER_PAGE * (prompt / c.block_size) +
      c.workers * (c.kv_cache_tokens / c.block_size) * BYTES_PER_KV_PAGE +
      classes * BYTES_PER_CLASS +
      treePages * GLOBAL_TREE_BYTES_PER_PAGE) /
    1e6;
  return {
    requests,
    peakQueue,
    capacityRps,
    simTimeS,
    events,
    walks,
    chainEvents,
    classEvents,
    policyClasses: classes,
    memoryMb,
    traceUncounted,
  };
}

/** The window keys of a trace section as replay options (which rows, not whose). */
function windowOf(
  tr: Pick<TraceSpec, 'time_scale' | 'start_s' | 'stop_s' | 'max_requests'> & { select_client?: string },
): TraceReplayOptions {
  return {
    timeScale: tr.time_scale,
    startS: tr.start_s,
    stopS: tr.stop_s ?? null,
    maxRequests: tr.max_requests ?? null,
    selectClient: tr.select_client ?? null,
    client: '',
    sloClass: 'standard',
    policyClass: null,
    model: null,
  };
}

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');

/** A refusal message when the estimate exceeds the budget, else null. */
export function budgetProblem(e: RunEstimate, b: RunBudget): string | null {
  const overMemory = e.memoryMb > b.memoryMb;
  const overEvents = e.events > b.events;
  if (!overMemory && !overEvents) return null;
  const what = [
    overMemory
      ? `${fmt(e.memoryMb)} MB of memory (budget ${fmt(b.memoryMb)} MB)${(e.policyClasses * BYTES_PER_CLASS) / 1e6 > e.memoryMb / 2 ? `, ${fmt((e.policyClasses * BYTES_PER_CLASS) / 1e6)} MB of it for the router's ${fmt(e.policyClasses)} policy classes` : ''}`
      : '',
    overEvents
      ? `${fmt(e.events)} events (budget ${fmt(b.events)})${e.walks > 0 ? `, counting ${fmt(e.walks)} walks of waiting requests' prefixes (the scheduler matches every waiting request at each step; its lpm_fcfs_fallback, where it has one, bounds that)` : ''}${e.chainEvents > e.events / 2 ? `, ${fmt(e.chainEvents)} of them for caching long prompts chunk by chunk (each chunk of max_batch_tokens or chunking.chunk_tokens joins the prefix cache one level deeper; larger chunks cut that)` : ''}${e.classEvents > e.events / 2 ? `, ${fmt(e.classEvents)} of them for the router's policy classes (each request's pop visits every class)` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return (
    `this run would exceed ${b.owner} budget: about ${fmt(e.requests)} requests, a queue of about ` +
    `${fmt(e.peakQueue)} when arrivals stop (the cluster serves about ${e.capacityRps.toPrecision(3)} req/s), ` +
    `${fmt(e.simTimeS)} s simulated, needing about ${what}` +
    `${e.traceUncounted ? ' (not counting the trace file, which is read when the run starts)' : ''}. ` +
    `Lower the rates or duration_s, add workers, ${b.raise}`
  );
}
