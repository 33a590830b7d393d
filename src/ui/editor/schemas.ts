/**
 * JSON Schemas (draft-07) for the editors, generated from the zod schemas that validate the files,
 * so hover text and completion come from the same source as the errors. Lives in the lazy editor
 * chunk (zod's JSON Schema generator never reaches the initial page).
 */
import { policyJsonSchema } from '../../policy/schema';
import type { EditorWhich } from './types';

export function schemaFor(which: EditorWhich): Record<string, unknown> | null {
  try {
    if (which === 'policy') return policyJsonSchema();
    return null;
  } catch {
    return null;
  }
}
