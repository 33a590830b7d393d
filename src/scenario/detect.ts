/** Tell a scenario document from policy files and arbitration scripts (by its top-level keys). */
import { SCENARIO_KEYS } from '../policy/detect';

/** True for a mapping with any of the scenario's own top-level keys (version, cluster, clients, ...) and no `ops`. */
export function isScenarioDoc(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if ('ops' in value) return false;
  return SCENARIO_KEYS.some((k) => k in value);
}
