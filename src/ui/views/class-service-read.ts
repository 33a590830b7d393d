/**
 * The Class service view's data: the core's typed ClassServiceSnapshot (src/core/metrics) as it
 * arrives in a cluster snapshot's `class_service` (absent without a policy queue, and in the sandbox).
 */
import type { ClassServiceSnapshot } from '../../core/metrics/class-service';
import type { SessionSnapshot } from '../../worker/session';
import { clusterOf } from './read';

export function readClassService(snapshot: SessionSnapshot | null): ClassServiceSnapshot | null {
  return clusterOf(snapshot)?.class_service ?? null;
}
