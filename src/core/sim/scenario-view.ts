/** The scenario as the engine reads it: the validated Scenario with every default applied. */
import type { Scenario } from '../../scenario/schema';

export type SimScenario = Scenario;
