/**
 * The scenario format parses into the core's input types (`src/core/input.ts`): each check below is a
 * function that returns what the schema parses as the core type, so a schema change that breaks what
 * the core reads fails `npm run typecheck` here, naming the key.
 */
import type { z } from 'zod';
import type * as Core from '../core/input';
import type { arrivalSchema } from './arrival-schema';
import type { tokenLength } from './lengths';
import type { programSchema } from './program-schema';
import type { ClientSpec, ClusterSpec, RouterSpec, Scenario, SchedulerSpec, ScriptedRequest } from './schema';

/** The scenario as parsed (defaults applied, policy compiled, trace rows attached) is the engine's input. */
export const scenarioToCore = (s: Scenario): Core.SimScenario => s;
export const lengthToCore = (l: z.output<ReturnType<typeof tokenLength>>): Core.Length => l;
export const arrivalToCore = (a: z.output<typeof arrivalSchema>): Core.ArrivalSpec => a;
export const programToCore = (p: z.output<typeof programSchema>): Core.ProgramSpec => p;
export const clientToCore = (c: ClientSpec): Core.ClientSpec => c;
export const requestToCore = (r: ScriptedRequest): Core.ScriptedRequest => r;
export const clusterToCore = (c: ClusterSpec): Core.ClusterSpec => c;
export const routerToCore = (r: RouterSpec): Core.RouterSpec => r;
export const schedulerToCore = (s: SchedulerSpec): Core.SchedulerSpec => s;
