/** The scenario format as JSON Schema draft-07, for the editor's validation, hover and completion. */
import { z } from 'zod';
import { policyJsonSchema } from '../policy/index';
import { ScenarioInputSchema } from './schema';

let cached: Record<string, unknown> | null = null;

/** Draft-07 JSON Schema of scenario files (defaulted keys optional; `router.policy` is the policy file's schema). */
export function scenarioJsonSchema(): Record<string, unknown> {
  if (cached) return structuredClone(cached);
  const schema = z.toJSONSchema(ScenarioInputSchema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  const router = (schema.properties as Record<string, Record<string, unknown>>).router;
  const props = router?.properties as Record<string, Record<string, unknown>> | undefined;
  if (props?.policy) {
    const policy = policyJsonSchema();
    delete policy.$schema;
    props.policy = { ...policy, description: props.policy.description };
  }
  cached = schema;
  return structuredClone(schema);
}
