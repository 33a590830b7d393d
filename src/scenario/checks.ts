/**
 * Cross-field rules of a scenario that a per-key schema cannot express: unique names, scripted
 * requests consistent with themselves and the duration, the model fitting on the GPU, contexts that
 * fit in one replica's KV cache, and the size limits (SCENARIO_LIMITS). Each problem names the path
 * it is about; the caller turns paths into line:col. They read the scenario as far as its schema
 * accepts it (view.ts), so they come in the same round as the schema's problems; a rule that reads
 * a value the schema refuses is skipped.
 */
import { GPUS, MODELS, weightBytes } from '../core/cost/index';
import { expectedArrivals } from '../core/workload/arrival-process';
import { programRequests, peakContextTokens } from '../core/workload/size';
import type { Path } from '../format/yaml';
import { thousands } from './fields';
import { SCENARIO_LIMITS } from './limits';
import { didYouMean, pathText, quote } from '../format/yaml';
import type { TraceSpec } from './trace-schema';
import { KEY_RELEASES, releaseRangeText } from '../policy/index';
import { known, type Read, type ScenarioView } from './view';

export interface CheckProblem {
  path: Path;
  message: string;
  /** Point at the key rather than its value. */
  key?: boolean;
}

function fmt(n: number): string {
  return thousands(Math.round(n));
}

/**
 * `due_in_s` stands for the due time a request classifier sets (Dynamo's `due_at`), which only the
 * releases that read `request_classifier` (v1.6) have. A policy whose own keys rule out every such
 * release (`releases`: the release lines that accept the policy file; absent = every release) cannot
 * meet a request with a due time: each `due_in_s` is refused, at its key.
 */
export function dueTimeProblems(
  s: Pick<ScenarioView, 'clients' | 'requests'>,
  releases: readonly string[] | undefined,
  /** The scenario's `router.dynamo_release`, when it names one: it decides alone. */
  release?: string,
): CheckProblem[] {
  const due = KEY_RELEASES.request_classifier;
  const has = (r: string) => due.includes(r as (typeof due)[number]);
  let message: string;
  if (release !== undefined) {
    if (has(release)) return [];
    message = `due_in_s stands for a classifier's due_at, which only ${releaseRangeText(due)} has; router.dynamo_release models ${releaseRangeText([release])}`;
  } else {
    if (releases === undefined || releases.some(has)) return [];
    message = `due_in_s stands for a classifier's due_at, which only ${releaseRangeText(due)} has; this policy file is valid for ${releaseRangeText(releases)}${releases.length > 0 ? ' only' : ''}`;
  }
  const out: CheckProblem[] = [];
  if (known(s.clients))
    s.clients.forEach((c, i) => {
      if (known(c) && c.due) out.push({ path: ['clients', i, 'due_in_s'], message, key: true });
    });
  if (known(s.requests))
    s.requests.forEach((r, i) => {
      if (known(r) && r.due) out.push({ path: ['requests', i, 'due_in_s'], message, key: true });
    });
  return out;
}

/** The rules of a trace section's reading keys (the top-level `trace:` or a client's). */
function traceProblems(
  tr: Pick<TraceSpec, 'start_s' | 'stop_s' | 'format' | 'columns'> & { select_client?: string },
  at: Path,
  out: CheckProblem[],
): void {
  if (tr.stop_s !== undefined && tr.stop_s <= tr.start_s)
    out.push({
      path: [...at, 'stop_s'],
      message: `stop_s (${tr.stop_s}) must be after start_s (${tr.start_s})`,
    });
  if (
    tr.format === 'csv' &&
    (tr.columns?.timestamp === undefined || tr.columns.input === undefined || tr.columns.output === undefined)
  )
    out.push({
      path: [...at, 'format'],
      message: `format csv needs ${pathText(at)}.columns with timestamp, input and output (the header names)`,
    });
  if (at[0] === 'clients' && tr.columns?.client !== undefined && tr.select_client === undefined)
    out.push({
      path: [...at, 'columns', 'client'],
      message:
        "a client's trace feeds that one client: its client column is read only to pick rows (add select_client: <name>), or replay a trace of several clients with the top-level trace:",
      key: true,
    });
  if (tr.select_client !== undefined && tr.columns?.client === undefined)
    out.push({
      path: [...at, 'select_client'],
      message:
        'select_client picks rows by their client column: give columns.client (the header name of the column that says whose row it is)',
      key: true,
    });
}

/**
 * `router.dynamo_release` names the release whose class queues the run models: it needs a policy
 * file (the queues), and one that release accepts.
 */
export function releaseProblems(
  s: Pick<ScenarioView, 'router'>,
  policy: { releases?: readonly string[] } | null,
): CheckProblem[] {
  const release = s.router.dynamo_release;
  if (release === undefined || !known(release)) return [];
  const path = ['router', 'dynamo_release'];
  if (policy === null)
    return [
      {
        path,
        message:
          "dynamo_release chooses how the router's policy-class queues behave; without a policy (router.policy or policy_file) there are none",
      },
    ];
  if (policy.releases !== undefined && !policy.releases.includes(release))
    return [
      {
        path,
        message: `${releaseRangeText([release])} does not accept this policy file, which is valid for ${releaseRangeText(policy.releases)}${policy.releases.length > 0 ? ' only' : ''}`,
      },
    ];
  return [];
}

export function scenarioProblems(s: ScenarioView): CheckProblem[] {
  const out: CheckProblem[] = [];
  const L = SCENARIO_LIMITS;
  const clients = known(s.clients) ? s.clients : [];
  const requests = known(s.requests) ? s.requests : [];
  const duration = s.duration_s;
  const kv = s.cluster.kvTokens;

  if (
    known(s.clients) &&
    known(s.requests) &&
    clients.length === 0 &&
    requests.length === 0 &&
    s.trace === undefined
  ) {
    out.push({
      path: [],
      message: 'no clients and no requests: add at least one client (or a scripted request)',
    });
  }
  const tr = s.trace;
  if (tr !== undefined && known(tr)) {
    const twin = clients.findIndex((c) => known(c) && c.name === tr.client);
    if (twin >= 0)
      out.push({
        path: ['trace', 'client'],
        message: `trace.client '${quote(String(tr.client))}' is also clients[${twin}]'s name; trace requests need a client of their own`,
      });
    traceProblems(tr, ['trace'], out);
  }

  // scheduler.client_weights (vtc) must name clients; a top-level trace may bring any name
  const weights = s.vtcWeightedClients;
  if (known(weights) && s.trace === undefined && known(s.clients) && known(s.requests)) {
    const names = new Set<string>();
    // an entry whose name is unreadable could be the one a key names: then say nothing
    let complete = true;
    for (const c of clients)
      if (known(c) && known(c.name)) names.add(c.name);
      else complete = false;
    for (const r of requests)
      if (known(r) && known(r.client)) names.add(r.client);
      else complete = false;
    const all = [...names];
    for (const key of weights)
      if (complete && !names.has(key)) {
        // say which names would do: a typo gets its likely client, else the clients are listed
        const hint = didYouMean(key, all);
        const shown = all.slice(0, 8).map((n) => `'${quote(n)}'`);
        const them = `${shown.join(', ')}${all.length > 8 ? `, … (${all.length} in all)` : ''}`;
        out.push({
          path: ['scheduler', 'client_weights', key],
          message: `client_weights names '${quote(key)}', which is no client of this scenario${hint !== undefined ? ` (did you mean '${quote(hint)}'?)` : all.length > 0 ? `; its clients: ${them}` : ''}`,
          key: true,
        });
      }
  }

  // Clients: unique names, windows, program sizes, contexts.
  const seen = new Map<string, number>();
  clients.forEach((c, i) => {
    if (!known(c)) return;
    if (known(c.name)) {
      const first = seen.get(c.name);
      if (first !== undefined) {
        out.push({
          path: ['clients', i, 'name'],
          message: `duplicate client name '${quote(String(c.name))}' (also clients[${first}])`,
        });
      } else seen.set(c.name, i);
    }
    if (c.isTrace) {
      if (known(c.trace) && c.trace !== undefined) traceProblems(c.trace, ['clients', i, 'trace'], out);
      return;
    }
    const a = c.arrival;
    if (known(a) && a !== undefined && a.process !== 'trace') {
      if (known(duration) && a.start_s >= duration) {
        out.push({
          path: ['clients', i, 'arrival', 'start_s'],
          message: `start_s (${a.start_s}) is not before duration_s (${duration}): this client would never arrive`,
        });
      }
      if (a.stop_s !== undefined && a.stop_s <= a.start_s) {
        out.push({
          path: ['clients', i, 'arrival', 'stop_s'],
          message: `stop_s must be > start_s (${a.start_s})`,
        });
      }
    }
    const program = c.program;
    if (!known(program) || program === undefined) return;
    const perProgram = programRequests(program);
    if (perProgram > L.maxProgramRequests) {
      out.push({
        path: ['clients', i, 'program'],
        message: `one ${program.type} program would submit ${fmt(perProgram)} requests; the limit is ${fmt(L.maxProgramRequests)} (lower depth, branching, dimensions, turns or questions)`,
      });
    }
    const peak = peakContextTokens(program);
    if (known(kv) && peak > kv) {
      const who = known(c.name) ? `client '${quote(String(c.name))}'` : `clients[${i}]`;
      out.push({
        path: ['clients', i, 'program'],
        message: `a ${program.type} request of ${who} typically reaches ${fmt(peak)} tokens of context, more than one replica's KV cache (${fmt(kv)} tokens): it could never run. Shorten the program or raise kv_cache_tokens / pick a bigger GPU`,
      });
    }
  });

  // Pinned workers must exist.
  const workers = s.cluster.workers;
  const pinProblem = (path: Path, worker: Read<number | undefined>) => {
    if (known(workers) && known(worker) && worker !== undefined && worker >= workers)
      out.push({
        path,
        message: `worker ${worker} does not exist: the cluster has ${workers} worker${workers === 1 ? '' : 's'} (0 to ${workers - 1})`,
      });
  };
  clients.forEach((c, i) => {
    if (known(c)) pinProblem(['clients', i, 'worker'], c.worker);
  });
  requests.forEach((r, i) => {
    if (known(r)) pinProblem(['requests', i, 'worker'], r.worker);
  });

  // Scripted requests: ids, prefixes, times.
  const ids = new Map<string, number>();
  requests.forEach((r, i) => {
    if (!known(r)) return;
    // the default id needs a readable client name
    const id =
      known(r.id) && r.id !== undefined ? r.id : known(r.id) && known(r.client) ? `${r.client}!${i}` : null;
    if (id !== null) {
      const first = ids.get(id);
      if (first !== undefined) {
        out.push({
          path: ['requests', i, r.id !== undefined ? 'id' : 'client'],
          message: `duplicate request id '${quote(String(id))}' (also requests[${first}])`,
        });
      } else ids.set(id, i);
    }
    const shared = r.shared_prefix_tokens;
    if (known(shared) && known(r.prompt_tokens) && shared > r.prompt_tokens) {
      out.push({
        path: ['requests', i, 'shared_prefix_tokens'],
        message: `shared_prefix_tokens (${shared}) must be ≤ prompt_tokens (${r.prompt_tokens})`,
      });
    }
    if (known(shared) && shared > 0 && r.shared_prefix === undefined) {
      out.push({
        path: ['requests', i, 'shared_prefix_tokens'],
        message: 'shared_prefix_tokens needs shared_prefix (the name of the prefix the requests share)',
      });
    }
    if (known(r.t) && known(duration) && r.t > duration) {
      out.push({ path: ['requests', i, 't'], message: `t (${r.t}) is after duration_s (${duration})` });
    }
    if (
      known(r.prompt_tokens) &&
      known(r.output_tokens) &&
      known(kv) &&
      r.prompt_tokens + r.output_tokens > kv
    ) {
      out.push({
        path: ['requests', i, 'prompt_tokens'],
        message: `prompt + output (${fmt(r.prompt_tokens + r.output_tokens)} tokens) exceeds one replica's KV cache (${fmt(kv)} tokens)`,
      });
    }
  });

  // Cluster.
  const c = s.cluster;
  if (c.kvAuto === true && kv === 0 && known(c.gpu) && known(c.model)) {
    const gpu = GPUS[c.gpu];
    const model = MODELS[c.model];
    out.push({
      path: ['cluster', 'model'],
      message: `${model.label} needs ${(weightBytes(model) / 2 ** 30).toFixed(1)} GiB of weights and does not fit in ${gpu.label}'s ${gpu.memoryGiB} GiB with room for a KV cache; pick a smaller model or a bigger GPU`,
    });
  } else if (c.kvAuto === false && known(kv) && known(c.block_size) && kv < c.block_size) {
    out.push({
      path: ['cluster', 'kv_cache_tokens'],
      message: `kv_cache_tokens (${kv}) must hold at least one block (${c.block_size} tokens)`,
    });
  }
  if (known(c.chunk_tokens) && known(c.max_batch_tokens) && c.chunk_tokens > c.max_batch_tokens) {
    out.push({
      path: ['cluster', 'chunking', 'chunk_tokens'],
      message: `chunk_tokens (${c.chunk_tokens}) must be ≤ max_batch_tokens (${c.max_batch_tokens})`,
    });
  }

  // Router.
  if (s.router.policy && s.router.policy_file) {
    out.push({
      path: ['router', 'policy_file'],
      message: 'give either policy (inline) or policy_file, not both',
      key: true,
    });
  }

  // Size: every program client's arrivals and program must be readable.
  if (known(duration) && known(s.clients) && known(s.requests)) {
    let expected: number | null = requests.length;
    for (const cl of clients) {
      if (expected === null) break;
      if (!known(cl)) expected = null;
      else if (cl.isTrace) continue;
      else if (
        !known(cl.arrival) ||
        !known(cl.program) ||
        cl.arrival === undefined ||
        cl.program === undefined
      )
        expected = null;
      else expected += expectedArrivals(cl.arrival, duration) * programRequests(cl.program);
    }
    if (expected !== null && expected > L.maxExpectedRequests) {
      out.push({
        path: ['duration_s'],
        message: `this scenario would inject about ${fmt(expected)} requests; the limit is ${fmt(L.maxExpectedRequests)} (lower rates, duration_s or program sizes)`,
        key: true,
      });
    }
  }
  return out;
}
