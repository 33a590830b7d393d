/** DLPM's keys in the scenario's `scheduler` section. */
import { z } from 'zod';
import { int } from '../../zod-fields';
import type { ParamsOf } from '../descriptor';
import { fcfsFallbackShape } from '../shared/prefix-order';

export const dlpmShape = {
  quantum: int('quantum', 1, Number.MAX_SAFE_INTEGER)
    .default(2500)
    .meta({ description: 'DLPM per-client quantum Q^u, service units (dlpm and doubleq; default 2500).' }),
  dlpm_quantum_per_request: z
    .boolean({ error: 'dlpm_quantum_per_request must be true or false' })
    .optional()
    .meta({
      description:
        'dlpm: a deliberately broken variant that grants Q^u per request instead of per refill round; it voids Theorem 4.1 (for the Guarantees view; default false).',
    }),
  ...fcfsFallbackShape,
};

export type DlpmParams = ParamsOf<typeof dlpmShape>;
