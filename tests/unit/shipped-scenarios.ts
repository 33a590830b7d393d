/** The cluster scenarios shipped in scenarios/ (arbitration scripts left out), for tests that run them all. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { formatProblems } from '../../src/format/yaml';
import { isScenarioDoc, parseScenarioText, type Scenario } from '../../src/scenario';

export const SCENARIO_DIR = join(__dirname, '../../scenarios');

/** File names of the shipped cluster scenarios, sorted. */
export const scenarioFiles: readonly string[] = readdirSync(SCENARIO_DIR)
  .filter((f) => f.endsWith('.yaml') && isScenarioDoc(parse(readFileSync(join(SCENARIO_DIR, f), 'utf8'))))
  .sort();

/** A shipped scenario, validated (throws with positioned problems if it does not validate). */
export function loadScenario(file: string): Scenario {
  const res = parseScenarioText(readFileSync(join(SCENARIO_DIR, file), 'utf8'), {
    file,
    readFile: (p) => readFileSync(join(SCENARIO_DIR, p), 'utf8'),
  });
  if (!res.ok) throw new Error(formatProblems(res.problems, file));
  return res.value;
}
