import { describe, expect, it } from 'vitest';
import { drive, scenarioOf, type Submitted } from './helpers';

function fingerprint(subs: Submitted[], client?: string): string {
  let h = 0;
  const parts: string[] = [];
  for (const s of subs) {
    if (client && s.request.client !== client) continue;
    for (const x of s.request.tokens) h = (Math.imul(h, 31) + x) | 0;
    parts.push(`${s.t.toFixed(9)} ${s.request.id} ${s.request.tokens.length} ${s.request.outputTokens} ${h}`);
  }
  return parts.join('\n');
}

const clients = [
  {
    name: 'alice',
    arrival: { process: 'gamma', rate: 2, cv: 2 },
    program: {
      type: 'multi-turn',
      turns: 3,
      prompt_tokens: { dist: 'lognormal', mean: 60, std: 40 },
      think_time_s: { dist: 'exponential', mean: 1 },
    },
  },
  {
    name: 'bob',
    arrival: { process: 'poisson', rate: 0.5 },
    program: {
      type: 'tree-of-thought',
      depth: 2,
      branching: 3,
      question_tokens: { dist: 'normal', mean: 100, std: 30 },
    },
  },
  {
    name: 'cat',
    arrival: { process: 'on-off', rate: 3, period_s: 4 },
    program: { type: 'judge', dimensions: 2, article_tokens: { dist: 'uniform', min: 100, max: 300 } },
  },
];

describe('determinism', () => {
  it('same seed → identical submissions (times, ids, lengths, token ids)', () => {
    const s = scenarioOf({ duration_s: 20, clients });
    expect(fingerprint(drive(s).submitted)).toBe(fingerprint(drive(s).submitted));
  });
  it('a different seed changes the workload', () => {
    const s = scenarioOf({ duration_s: 20, clients });
    expect(fingerprint(drive(s, 1, 1).submitted)).not.toBe(fingerprint(drive(s, 1, 2).submitted));
  });
  it('adding a client does not change the other clients’ streams', () => {
    const before = drive(scenarioOf({ duration_s: 20, clients: clients.slice(0, 2) })).submitted;
    const after = drive(scenarioOf({ duration_s: 20, clients })).submitted;
    expect(fingerprint(after, 'alice')).toBe(fingerprint(before, 'alice'));
    expect(fingerprint(after, 'bob')).toBe(fingerprint(before, 'bob'));
  });
  it('request contents do not depend on how fast the engine completes requests', () => {
    const s = scenarioOf({ duration_s: 20, clients });
    const fast = drive(s, 0.1).submitted;
    const slow = drive(s, 3).submitted;
    const key = (subs: Submitted[]) =>
      subs
        .map((x) => `${x.request.id} ${x.request.tokens.length} ${x.request.outputTokens}`)
        .sort()
        .join('\n');
    expect(key(fast)).toBe(key(slow));
  });
});
