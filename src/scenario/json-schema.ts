/** The scenario format as JSON Schema draft-07, for the editor's validation, hover and completion. */
import { z } from 'zod';
import { policyJsonSchema } from '../policy/index';
import { ScenarioInputSchema } from './schema';
import { CLIENTS_OWN_KEYS } from './trace-schema';

type JsonObject = Record<string, unknown>;

function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The alternatives of a JSON Schema union (`oneOf`/`anyOf`), or the schema itself. */
function membersOf(schema: unknown): JsonObject[] {
  if (!isJsonObject(schema)) return [];
  const options = schema.oneOf ?? schema.anyOf;
  return Array.isArray(options) ? options.filter(isJsonObject) : [schema];
}

let cached: Record<string, unknown> | null = null;

/** Draft-07 JSON Schema of scenario files (defaulted keys optional; `router.policy` is the policy file's schema in every routing's member). */
export function scenarioJsonSchema(): Record<string, unknown> {
  if (cached) return structuredClone(cached);
  const schema = z.toJSONSchema(ScenarioInputSchema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  // the router section is a union on `routing`: every member carries `policy`
  const router = (schema.properties as Record<string, JsonObject>).router;
  const policy = policyJsonSchema();
  delete policy.$schema;
  for (const member of membersOf(router)) {
    const props = member.properties as Record<string, JsonObject> | undefined;
    if (props?.policy) props.policy = { ...policy, description: props.policy.description };
  }
  // a client's trace: the keys that belong on the client are refused there, so not offered
  const clients = (schema.properties as Record<string, JsonObject>).clients;
  const items = isJsonObject(clients?.items) ? clients.items : undefined;
  const trace = isJsonObject(items?.properties) ? (items.properties as JsonObject).trace : undefined;
  if (isJsonObject(trace) && isJsonObject(trace.properties))
    for (const k of CLIENTS_OWN_KEYS) delete (trace.properties as JsonObject)[k];
  cached = schema;
  return structuredClone(schema);
}
