/**
 * JSON Schemas (draft-07) for the editors, generated from the zod schemas that validate the files,
 * so hover text and completion come from the same source as the errors. Lives in the lazy editor
 * chunk (zod's JSON Schema generator never reaches the initial page).
 */
import { policyJsonSchema, scriptJsonSchema } from '../../policy';
import { scenarioJsonSchema } from '../../scenario';

/** What a model holds: decides its URI and so its schema. */
import type { DocKind } from './types';

export type { DocKind };

export function schemaFor(kind: DocKind): Record<string, unknown> | null {
  try {
    if (kind === 'policy') return policyJsonSchema();
    if (kind === 'script') return scriptJsonSchema();
    return scenarioJsonSchema();
  } catch {
    return null;
  }
}
