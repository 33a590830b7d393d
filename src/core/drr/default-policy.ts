/**
 * With no policy the router still queues through DRR, but over a single synthetic class named
 * `default` (quantum 1, FCFS, no thresholds): arbitration then reduces to one plain queue.
 */
import type { Profile } from './types';

export const DEFAULT_CLASS_NAME = 'default';
export const DEFAULT_PROFILE_NAME = '(default)';
export const ROOT_PROFILE_NAME = '(root)';

export function syntheticDefaultProfile(): Profile {
  return {
    name: DEFAULT_PROFILE_NAME,
    model: null,
    defaultFamily: null,
    buckets: [],
    classes: [{ name: DEFAULT_CLASS_NAME, quantum: 1, queuePolicy: 'fcfs' }],
    families: [],
    cells: [],
  };
}
