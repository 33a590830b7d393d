/** KV-aware routing (Dynamo's KV router): prefix overlap against load. */
import { num } from '../../zod-fields';
import { defineRouting } from '../descriptor';
import { KvAwareRouter } from './policy';

export type { KvAwareDetail } from './policy';

export const kvAware = defineRouting({
  name: 'kv-aware',
  summary: 'the best score of cached prefix overlap against load (Dynamo KV router)',
  params: {
    kv_overlap_weight: num('kv_overlap_weight', 0, 1000).default(1).meta({
      description:
        'kv-aware: weight of prefix overlap (in blocks) against load in the worker score (default 1).',
    }),
  },
  state: (p) => (p instanceof KvAwareRouter ? p.describe() : undefined),
  create: (cfg) => new KvAwareRouter(cfg.params.kv_overlap_weight),
});
