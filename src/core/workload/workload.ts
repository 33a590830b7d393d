/**
 * The workload of a scenario: every client's arrival process and program runner, plus the scripted
 * requests. Randomness: each client gets its own stream forked from the scenario's generator by the
 * client's name (so adding a client changes no other client's arrivals or lengths); within a client,
 * arrivals and program contents use separate forks, and every program instance and node forks
 * again by its index or path, so a request's lengths never depend on the order in which the engine
 * completes other requests.
 */
import { isTraceClient, type ProgramClientSpec, type ProgramSpec, type SimScenario } from '../input';
import type { Rng } from '../prng';
import { type ArrivalProcess, createArrivalProcess } from './arrival-process';
import type { ClientContext, ProgramRunner } from './programs/context';
import { judgeRunner } from './programs/judge';
import { longQaRunner } from './programs/long-qa';
import { multiTurnRunner } from './programs/multi-turn';
import { singleRunner } from './programs/single';
import { treeOfThoughtRunner } from './programs/tree-of-thought';
import { scriptedEvents } from './scripted';
import type { RequestSpec, Workload, WorkloadEvent } from './types';

/** The runner of a program type. */
export function createRunner(ctx: ClientContext, spec: ProgramSpec): ProgramRunner {
  switch (spec.type) {
    case 'single':
      return singleRunner(ctx, spec);
    case 'multi-turn':
      return multiTurnRunner(ctx, spec);
    case 'tree-of-thought':
      return treeOfThoughtRunner(ctx, spec);
    case 'judge':
      return judgeRunner(ctx, spec);
    case 'long-qa':
      return longQaRunner(ctx, spec);
  }
}

/** Namespace of a client's shared parts (see ClientContext.ns). */
export function prefixNamespace(client: ProgramClientSpec): string {
  return client.prefix_group !== undefined ? `group:${client.prefix_group}` : `client:${client.name}`;
}

interface ClientState {
  spec: ProgramClientSpec;
  arrivals: ArrivalProcess;
  runner: ProgramRunner;
  instances: number;
}

/** Client name of a generated request id ("<client>#<n>.<node>"); scripted ids have none. */
function clientOf(requestId: string): string | null {
  const hash = requestId.indexOf('#');
  return hash > 0 ? requestId.slice(0, hash) : null;
}

export class ScenarioWorkload implements Workload {
  readonly clients: readonly string[];
  private readonly states = new Map<string, ClientState>();

  constructor(
    private readonly scenario: SimScenario,
    rng: Rng,
  ) {
    const names: string[] = [];
    for (const spec of scenario.clients) {
      names.push(spec.name);
      // a trace client's requests come from its trace (core/trace's TraceWorkload wraps this one)
      if (isTraceClient(spec)) continue;
      const clientRng = rng.fork(`client ${spec.name}`);
      const ns = prefixNamespace(spec);
      const ctx: ClientContext = {
        client: spec,
        ns,
        rng: clientRng.fork('program'),
        nsRng: rng.fork(`prefix ${ns}`),
      };
      this.states.set(spec.name, {
        spec,
        arrivals: createArrivalProcess(spec.arrival, clientRng.fork('arrival'), scenario.duration_s),
        runner: createRunner(ctx, spec.program),
        instances: 0,
      });
    }
    for (const r of scenario.requests) if (!names.includes(r.client)) names.push(r.client);
    this.clients = names;
  }

  initialEvents(): WorkloadEvent[] {
    const events: WorkloadEvent[] = [];
    for (const [name, st] of this.states) {
      const t = st.arrivals.first();
      if (t !== null) events.push({ t, kind: 'arrival', client: name });
    }
    events.push(...scriptedEvents(this.scenario.requests, this.scenario.clients));
    return events;
  }

  onArrival(client: string, t: number): { submit: RequestSpec[]; next: WorkloadEvent | null } {
    const st = this.states.get(client);
    if (!st) return { submit: [], next: null };
    const submit = st.runner.start(st.instances, t);
    st.instances += 1;
    const nextT = st.arrivals.next(t);
    return { submit, next: nextT === null ? null : { t: nextT, kind: 'arrival', client } };
  }

  onComplete(requestId: string, t: number): WorkloadEvent[] {
    const client = clientOf(requestId);
    const st = client === null ? undefined : this.states.get(client);
    return st ? st.runner.complete(requestId, t) : [];
  }

  onReject(requestId: string): WorkloadEvent[] {
    const client = clientOf(requestId);
    const st = client === null ? undefined : this.states.get(client);
    st?.runner.reject(requestId);
    return [];
  }

  /** Requests the programs still wait for, over all clients (bounded-memory checks). */
  waiting(): number {
    let n = 0;
    for (const st of this.states.values()) n += st.runner.waiting();
    return n;
  }

  /** Program instances started so far by a client. */
  started(client: string): number {
    return this.states.get(client)?.instances ?? 0;
  }
}

/** The workload of a validated scenario; `rng` is the scenario's generator (seeded with its seed). */
export function createWorkload(scenario: SimScenario, rng: Rng): Workload & ScenarioWorkload {
  return new ScenarioWorkload(scenario, rng);
}
