import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectedRequests } from '../../../src/core/workload/index';
import { formatProblems } from '../../../src/format/yaml';
import { isScenarioDoc, parseScenarioText } from '../../../src/scenario/index';
import { pc } from '../program-client';

const DIR = join(__dirname, '../../../scenarios');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const scenarioFiles = files.filter((f) => isScenarioDoc(parse(readFileSync(join(DIR, f), 'utf8'))));

function load(file: string) {
  const text = readFileSync(join(DIR, file), 'utf8');
  const res = parseScenarioText(text, { file, readFile: (p) => readFileSync(join(DIR, p), 'utf8') });
  if (!res.ok) throw new Error(formatProblems(res.problems, file));
  return res.value;
}

describe('shipped scenarios', () => {
  it('include the required ones', () => {
    for (const f of [
      'default.yaml',
      'tot-misbehaving-s2.yaml',
      'multi-turn-chat.yaml',
      'long-qa-s1.yaml',
      'judge-s2.yaml',
      'bench-tot-100k.yaml',
    ]) {
      expect(scenarioFiles).toContain(f);
    }
  });
  for (const f of scenarioFiles) {
    it(`${f} validates, with a name and a description a learner can read`, () => {
      const s = load(f);
      expect(s.name.length).toBeGreaterThan(5);
      expect(s.description.length).toBeGreaterThan(100);
    });
  }
  it('default.yaml is small and lively: 2 workers, 3 clients with different programs, every layer on', () => {
    const s = load('default.yaml');
    expect(s.cluster.workers).toBe(2);
    expect(s.clients.length).toBe(3);
    expect(new Set(s.clients.map((c) => pc(c).program.type)).size).toBe(3);
    // A first visit shows the policy-class DRR ring, a fair local scheduler and a locality-aware router.
    expect(s.router.policy?.root?.classes.length).toBeGreaterThan(1);
    expect(s.scheduler.policy).toBe('dlpm');
    expect(s.router.routing).toBe('kv-aware');
    expect(s.duration_s).toBe(60);
  });
  it('bench-tot-100k.yaml: 8 workers, Tree of Thoughts, about 100,000 requests', () => {
    const s = load('bench-tot-100k.yaml');
    expect(s.cluster.workers).toBe(8);
    expect(s.cluster.prefix_caching).toBe(true);
    expect(s.clients.every((c) => pc(c).program.type === 'tree-of-thought')).toBe(true);
    const n = expectedRequests(s.clients, s.duration_s);
    expect(n).toBeGreaterThan(95_000);
    expect(n).toBeLessThan(105_000);
  });
  it('tot-misbehaving-s2.yaml: 4 workers, one client with 10× longer questions', () => {
    const s = load('tot-misbehaving-s2.yaml');
    expect(s.cluster.workers).toBe(4);
    const q = s.clients.map((c) => {
      const p = pc(c).program;
      return p.type === 'tree-of-thought' ? p.question_tokens : null;
    });
    const means = q.map((x) => (x !== null && typeof x === 'object' && 'mean' in x ? x.mean : 0));
    expect(Math.max(...means)).toBe(10 * Math.min(...means));
  });
});
