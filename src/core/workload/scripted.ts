/**
 * Scripted requests (`requests:` in a scenario): exact submissions at fixed times. A request naming
 * `shared_prefix` starts with `shared_prefix_tokens` tokens of that named stream (global: any request
 * naming the same prefix shares them); the rest of its prompt is its own.
 */
import type { ClientSpec, ScriptedRequest } from '../input';
import { type Segment, StreamPrompt, StreamRequestSpec } from './prompt';
import type { RequestSpec, WorkloadEvent } from './types';

/** Default id of the i-th scripted request: "<client>!<i>" ('!' never appears in generated ids). */
export function scriptedId(r: ScriptedRequest, index: number): string {
  return r.id ?? `${r.client}!${index}`;
}

export function scriptedRequest(
  r: ScriptedRequest,
  index: number,
  client: ClientSpec | undefined,
): RequestSpec {
  const id = scriptedId(r, index);
  const shared = r.shared_prefix !== undefined ? Math.min(r.shared_prefix_tokens, r.prompt_tokens) : 0;
  const pieces: Segment[] = [];
  if (shared > 0) pieces.push({ label: `shared:${r.shared_prefix}`, count: shared });
  if (r.prompt_tokens - shared > 0) pieces.push({ label: `${id}/new`, count: r.prompt_tokens - shared });
  const spec = new StreamRequestSpec(
    id,
    r.client,
    StreamPrompt.build(null, pieces, false),
    Math.min(r.output_tokens, r.max_new_tokens ?? r.output_tokens),
    r.max_new_tokens ?? r.output_tokens,
    r.slo_class ?? client?.slo_class ?? 'standard',
    id,
    'scripted',
  );
  const policyClass = r.policy_class ?? client?.policy_class;
  if (policyClass !== undefined) spec.policyClass = policyClass;
  const model = r.model ?? client?.model;
  if (model !== undefined) spec.model = model;
  if (r.priority !== 0) spec.priority = r.priority;
  if (r.strict_priority !== 0) spec.strictPriority = r.strict_priority;
  const worker = r.worker ?? client?.worker;
  if (worker !== undefined) spec.worker = worker;
  const due = r.due_in_s ?? client?.due_in_s;
  if (due !== undefined) spec.dueInS = due;
  return spec;
}

/** Submit events of every scripted request, in time order (ties: file order). */
export function scriptedEvents(
  requests: readonly ScriptedRequest[],
  clients: readonly ClientSpec[],
): WorkloadEvent[] {
  const byName = new Map(clients.map((c) => [c.name, c]));
  const order = requests.map((r, i) => ({ r, i })).sort((a, b) => a.r.t - b.r.t || a.i - b.i);
  return order.map(({ r, i }) => ({
    t: r.t,
    kind: 'submit',
    request: scriptedRequest(r, i, byName.get(r.client)),
  }));
}
