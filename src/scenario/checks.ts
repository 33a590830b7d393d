/**
 * Cross-field rules of a scenario that a per-key schema cannot express: unique names, scripted
 * requests consistent with themselves and the duration, the model fitting on the GPU, contexts that
 * fit in one replica's KV cache, and the size limits (SCENARIO_LIMITS). Each problem names the path
 * it is about; the caller turns paths into line:col.
 */
import { GPUS, MODELS, weightBytes } from '../core/cost/index';
import { programRequests, expectedRequests, peakContextTokens } from '../core/workload/size';
import type { Path } from '../format/yaml';
import { thousands } from './fields';
import { SCENARIO_LIMITS } from './limits';
import type { ScenarioInputSchema } from './schema';
import type { z } from 'zod';
import { pathText, quote } from '../format/yaml';
import type { TraceSpec } from './trace-schema';
import { KEY_RELEASES, releaseRangeText } from '../policy/index';

type Parsed = z.output<typeof ScenarioInputSchema>;

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
  s: Parsed,
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
  s.clients.forEach((c, i) => {
    if (c.due_in_s !== undefined) out.push({ path: ['clients', i, 'due_in_s'], message, key: true });
  });
  s.requests.forEach((r, i) => {
    if (r.due_in_s !== undefined) out.push({ path: ['requests', i, 'due_in_s'], message, key: true });
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
export function releaseProblems(s: Parsed, policy: { releases?: readonly string[] } | null): CheckProblem[] {
  const release = s.router.dynamo_release;
  if (release === undefined) return [];
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

export function scenarioProblems(s: Parsed): CheckProblem[] {
  const out: CheckProblem[] = [];
  const L = SCENARIO_LIMITS;

  if (s.clients.length === 0 && s.requests.length === 0 && s.trace === undefined) {
    out.push({
      path: [],
      message: 'no clients and no requests: add at least one client (or a scripted request)',
    });
  }
  const tr = s.trace;
  if (tr !== undefined) {
    const twin = s.clients.findIndex((c) => c.name === tr.client);
    if (twin >= 0)
      out.push({
        path: ['trace', 'client'],
        message: `trace.client '${quote(String(tr.client))}' is also clients[${twin}]'s name; trace requests need a client of their own`,
      });
    traceProblems(tr, ['trace'], out);
  }

  // Clients: unique names, windows, program sizes, contexts.
  const seen = new Map<string, number>();
  s.clients.forEach((c, i) => {
    const first = seen.get(c.name);
    if (first !== undefined) {
      out.push({
        path: ['clients', i, 'name'],
        message: `duplicate client name '${quote(String(c.name))}' (also clients[${first}])`,
      });
    } else seen.set(c.name, i);
    if (!('arrival' in c)) {
      traceProblems(c.trace, ['clients', i, 'trace'], out);
      return;
    }
    const a = c.arrival;
    if (a.process !== 'trace') {
      if (a.start_s >= s.duration_s) {
        out.push({
          path: ['clients', i, 'arrival', 'start_s'],
          message: `start_s (${a.start_s}) is not before duration_s (${s.duration_s}): this client would never arrive`,
        });
      }
      if (a.stop_s !== undefined && a.stop_s <= a.start_s) {
        out.push({
          path: ['clients', i, 'arrival', 'stop_s'],
          message: `stop_s must be > start_s (${a.start_s})`,
        });
      }
    }
    const perProgram = programRequests(c.program);
    if (perProgram > L.maxProgramRequests) {
      out.push({
        path: ['clients', i, 'program'],
        message: `one ${c.program.type} program would submit ${fmt(perProgram)} requests; the limit is ${fmt(L.maxProgramRequests)} (lower depth, branching, dimensions, turns or questions)`,
      });
    }
    const peak = peakContextTokens(c.program);
    if (peak > s.cluster.kv_cache_tokens) {
      out.push({
        path: ['clients', i, 'program'],
        message: `a ${c.program.type} request of client '${quote(String(c.name))}' typically reaches ${fmt(peak)} tokens of context, more than one replica's KV cache (${fmt(s.cluster.kv_cache_tokens)} tokens): it could never run. Shorten the program or raise kv_cache_tokens / pick a bigger GPU`,
      });
    }
  });

  // Pinned workers must exist.
  const pinProblem = (path: Path, worker: number | undefined) => {
    if (worker !== undefined && worker >= s.cluster.workers)
      out.push({
        path,
        message: `worker ${worker} does not exist: the cluster has ${s.cluster.workers} worker${s.cluster.workers === 1 ? '' : 's'} (0 to ${s.cluster.workers - 1})`,
      });
  };
  s.clients.forEach((c, i) => {
    pinProblem(['clients', i, 'worker'], c.worker);
  });
  s.requests.forEach((r, i) => {
    pinProblem(['requests', i, 'worker'], r.worker);
  });

  // Scripted requests: ids, prefixes, times.
  const ids = new Map<string, number>();
  s.requests.forEach((r, i) => {
    const id = r.id ?? `${r.client}!${i}`;
    const first = ids.get(id);
    if (first !== undefined) {
      out.push({
        path: ['requests', i, r.id !== undefined ? 'id' : 'client'],
        message: `duplicate request id '${quote(String(id))}' (also requests[${first}])`,
      });
    } else ids.set(id, i);
    if (r.shared_prefix_tokens > r.prompt_tokens) {
      out.push({
        path: ['requests', i, 'shared_prefix_tokens'],
        message: `shared_prefix_tokens (${r.shared_prefix_tokens}) must be ≤ prompt_tokens (${r.prompt_tokens})`,
      });
    }
    if (r.shared_prefix_tokens > 0 && r.shared_prefix === undefined) {
      out.push({
        path: ['requests', i, 'shared_prefix_tokens'],
        message: 'shared_prefix_tokens needs shared_prefix (the name of the prefix the requests share)',
      });
    }
    if (r.t > s.duration_s) {
      out.push({ path: ['requests', i, 't'], message: `t (${r.t}) is after duration_s (${s.duration_s})` });
    }
    if (r.prompt_tokens + r.output_tokens > s.cluster.kv_cache_tokens) {
      out.push({
        path: ['requests', i, 'prompt_tokens'],
        message: `prompt + output (${fmt(r.prompt_tokens + r.output_tokens)} tokens) exceeds one replica's KV cache (${fmt(s.cluster.kv_cache_tokens)} tokens)`,
      });
    }
  });

  // Cluster.
  const c = s.cluster;
  if (c.kv_cache_auto && c.kv_cache_tokens === 0) {
    const gpu = GPUS[c.gpu];
    const model = MODELS[c.model];
    out.push({
      path: ['cluster', 'model'],
      message: `${model.label} needs ${(weightBytes(model) / 2 ** 30).toFixed(1)} GiB of weights and does not fit in ${gpu.label}'s ${gpu.memoryGiB} GiB with room for a KV cache; pick a smaller model or a bigger GPU`,
    });
  } else if (c.kv_cache_tokens < c.block_size) {
    out.push({
      path: ['cluster', 'kv_cache_tokens'],
      message: `kv_cache_tokens (${c.kv_cache_tokens}) must hold at least one block (${c.block_size} tokens)`,
    });
  }
  if (c.chunking.chunk_tokens > c.max_batch_tokens) {
    out.push({
      path: ['cluster', 'chunking', 'chunk_tokens'],
      message: `chunk_tokens (${c.chunking.chunk_tokens}) must be ≤ max_batch_tokens (${c.max_batch_tokens})`,
    });
  }

  // Router.
  if (s.router.policy !== undefined && s.router.policy_file !== undefined) {
    out.push({
      path: ['router', 'policy_file'],
      message: 'give either policy (inline) or policy_file, not both',
      key: true,
    });
  }

  // Size.
  const expected = expectedRequests(s.clients, s.duration_s) + s.requests.length;
  if (expected > L.maxExpectedRequests) {
    out.push({
      path: ['duration_s'],
      message: `this scenario would inject about ${fmt(expected)} requests; the limit is ${fmt(L.maxExpectedRequests)} (lower rates, duration_s or program sizes)`,
      key: true,
    });
  }
  return out;
}
