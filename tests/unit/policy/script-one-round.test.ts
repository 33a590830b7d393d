/**
 * An arbitration script's op rules (ids, classes, workers, cost or isl, blocked classes, what an op
 * is) come in the same round as its schema problems, sorted by position, one message per mistake
 * (#15 leftover): before, a schema problem anywhere hid every op problem until it was fixed.
 */
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { validateCommand } from '../../../src/cli/validate';
import { validateScriptText } from '../../../src/policy';

const SCRIPT = `workers: 2
policy:
  policy_classes:
    - { name: A, quantum: 1 }
    - { name: B, quantum: 2 }
ops:
  - enqueue: { id: a, class: A, cost: 3 }
  - enqueue: { id: a, class: C, cost: -1 }
  - enqueue: { class: A, cost: 3, worker: 2 }
  - enqueue: { class: A, priorty: 1, cost: 2 }
  - pop: { blocked: [D], count: 0 }
  - enqeue: { cost: 1 }
  - enqueue: { cost: 2, isl: 4 }
  - {}
  - enqueue: { cots: 3 }
`;

const lines = (text: string) => {
  const res = validateScriptText(text);
  return res.ok ? [] : res.problems.map((p) => `${p.line}:${p.col}: ${p.message.split(';')[0]}`);
};

describe("a script's op problems beside its schema problems (one round)", () => {
  it('every mistake once, sorted by position', () => {
    expect(lines(SCRIPT)).toEqual([
      "8:20: duplicate request id 'a' (first at line 7)",
      "8:30: unknown class 'C'",
      '8:39: ops[1].enqueue.cost: cost must be ≥ 1',
      "9:43: worker 2 is not one of the script's 2 worker(s) (0-based)",
      "10:26: ops[3].enqueue: unknown key 'priorty' (did you mean 'priority'?)",
      "11:22: unknown class 'D'",
      '11:33: ops[4].pop.count: count must be ≥ 1',
      // a misspelt op or cost: the schema's message, not also "an op needs …" or "needs cost or isl"
      "12:5: ops[5]: unknown key 'enqeue' (did you mean 'enqueue'?)",
      '13:16: cost is shorthand for isl: N, cached: 0',
      '14:5: an op needs `enqueue: {...}` or `pop: {...}`',
      "15:16: ops[8].enqueue: unknown key 'cots' (did you mean 'cost'?)",
    ]);
  });

  it('a rule whose input is broken is skipped, not guessed', () => {
    // workers: 0 is refused, so no op's worker is checked against it
    const out = lines(SCRIPT.replace('workers: 2', 'workers: 0'));
    expect(out[0]).toBe('1:10: workers: workers must be ≥ 1');
    expect(out.filter((l) => l.includes('is not one of the script'))).toEqual([]);
    // an unreadable model: the request's profile is unknown, so its class is not checked
    expect(
      lines(
        'policy:\n  policy_classes: [{ name: A, quantum: 1 }]\nops:\n  - enqueue: { class: Z, cost: 1, model: 5 }\n',
      ),
    ).toEqual(['4:42: ops[0].enqueue.model: model must be a string']);
  });

  it('validate prints the same lines, file:line:col', async () => {
    const io = memoryIO({ 's.yaml': SCRIPT });
    expect(await validateCommand(['s.yaml'], io)).toBe(1);
    const printed = io.stderr.join('\n').split('\n');
    expect(printed).toHaveLength(11);
    expect(printed.map((l) => l.replace(/^s\.yaml:(\d+:\d+): ([^;]*).*$/, '$1: $2'))).toEqual(lines(SCRIPT));
  });

  it('a valid script still builds its ops', () => {
    const res = validateScriptText(
      'policy:\n  policy_classes: [{ name: A, quantum: 1 }]\nops:\n  - enqueue: { id: x, class: A, isl: 5, cached: 2 }\n  - pop:\n',
    );
    expect(res.ok && res.value.ops).toEqual([
      expect.objectContaining({ kind: 'enqueue', id: 'x', rawIsl: 5, cachedTokens: 2, arrivalS: 0 }),
      { kind: 'pop', count: 1, blocked: [], busyWorkers: [], at: null, model: null },
    ]);
  });
});

describe('a cluster scenario and a script in one file', () => {
  it("each of the scenario's keys is its own problem, at its line, saying why the file is a script", () => {
    const mixed = `version: 1
name: mixed
duration_s: 5
cluster: { workers: 1, gpu: a10g-24gb, model: llama-3.1-8b }
clients: []
policy:
  policy_classes:
    - { name: A, quantum: 10 }
ops:
  - enqueue: { id: a0, class: A, cost: 3 }
  - enqueue: { id: a1, class: A, cots: 3 }
`;
    const why = " (a cluster scenario's key: this file has `ops`, so it is read as an arbitration script)";
    expect(lines(mixed)).toEqual([
      `1:1: unknown key 'version'${why}`,
      `3:1: unknown key 'duration_s'${why}`,
      `4:1: unknown key 'cluster'${why}`,
      `5:1: unknown key 'clients'${why}`,
      "11:34: ops[1].enqueue: unknown key 'cots' (did you mean 'cost'?)",
    ]);
  });
});
