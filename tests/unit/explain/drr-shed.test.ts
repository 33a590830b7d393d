/**
 * A pop that sheds requests past their due time (Dynamo v1.6) says so: the log line gives how late
 * each was, in the page's number format, and the explanation has a Shed step at the class that shed
 * them, saying they were not charged. The shipped lesson quotes the line the page shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArbitrationSession, type DrrPopRecord } from '../../../src/core/drr';
import { explainDrrDecision, explainDrrText } from '../../../src/core/explain';
import { grouped, lateText } from '../../../src/core/explain/words';
import { scriptWithPolicy, validateScriptText } from '../../../src/policy';
import { parseYaml } from '../../../src/format/yaml';
import { fmtCount } from '../../../src/ui/views/format';
import { SandboxSession } from '../../../src/worker/arbitration-session';
import { SCENARIO_DIR } from '../shipped-scenarios';

const SHEDS = `
release: v1.6
policy: {policy_classes: [{name: A, quantum: 10}, {name: B, quantum: 10}]}
ops:
  - enqueue: {id: a0, class: A, cost: 3, due_at: 1}
  - enqueue: {id: a1, class: A, cost: 3, due_at: 1.5}
  - enqueue: {id: a2, class: A, cost: 3}
  - enqueue: {id: b0, class: B, cost: 3, due_at: 0.5}
  - pop: {at: 2}
  - pop: {at: 3}
`;

function records(script: string): DrrPopRecord[] {
  const parsed = validateScriptText(script);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const session = new ArbitrationSession(parsed.value);
  const out: DrrPopRecord[] = [];
  for (let s = session.step(); s; s = session.step()) if (s.record) out.push(s.record);
  return out;
}

describe('a pop that sheds requests past their due time', () => {
  const [first, second] = records(SHEDS);

  it('records how late each shed request was, as the CLI line does', () => {
    expect(first.expired).toEqual([
      { id: 'a0', class: 'A', overdue_ms: 1000 },
      { id: 'a1', class: 'A', overdue_ms: 500 },
    ]);
    expect(first.summary).toBe(
      'A earns its quantum and can afford a2 (cost 3); A keeps 0, cursor B; shed past their due time, unserved and uncharged: a0 (A, 1\u202f000 ms late), a1 (A, 500 ms late)',
    );
  });

  it('explains the shedding at the class that shed, before its head is read', () => {
    const steps = explainDrrDecision(first);
    expect(steps.map((s) => s.text.split(':')[0])).toEqual(['Start', 'Shed', 'A', 'Result']);
    expect(steps[1]).toEqual({
      text: "Shed: a0 (1\u202f000 ms late) and a1 (500 ms late) in A were due before this pop, so A drops them unserved before its head is read: since Dynamo v1.6 a queued request whose due time has passed leaves its class without being dispatched (a cluster run refuses it with HTTP 429). Nothing is charged for them: A's credit is not reduced, and the cursor and the carry do not move for them.",
      ref: { kind: 'class', name: 'A', profile: '(root)' },
    });
  });

  it('a pop whose shedding empties every class says so, not that the heads are blocked', () => {
    expect(second.chosen).toBeNull();
    expect(second.summary).toBe(
      'no class has work left after shedding: nothing dispatched and no credit granted; shed past their due time, unserved and uncharged: b0 (B, 2\u202f500 ms late)',
    );
    expect(explainDrrText(second)).toBe(
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at B (the cursor).',
        "2. Shed: b0 (2\u202f500 ms late) in B was due before this pop, so B drops it unserved before its head is read: since Dynamo v1.6 a queued request whose due time has passed leaves its class without being dispatched (a cluster run refuses it with HTTP 429). Nothing is charged for it: B's credit is not reduced, and the cursor and the carry do not move for it.",
        '3. B is empty: its credit resets to 0.',
        '4. A is empty: its credit resets to 0.',
        'Result: nothing dispatched: shedding left no class with work, so no credit is granted; the next scan still starts at B.',
      ].join('\n'),
    );
  });

  it('a record without the lateness (written before it was kept) still names the shed request', () => {
    const old = { ...first, expired: first.expired?.map(({ id, class: c }) => ({ id, class: c })) };
    // the type now requires overdue_ms; an older record read back from JSON may lack it
    expect(explainDrrDecision(JSON.parse(JSON.stringify(old)))[1].text).toMatch(
      /^Shed: a0 and a1 in A were due/,
    );
  });
});

describe('the lateness is printed as the page prints counts', () => {
  it('grouped() is fmtCount for whole numbers, and lateText says "under 1 ms" for a truncated 0', () => {
    for (const n of [0, 7, 999, 1000, 1500, 12_345, 999_999, 1_000_000, 2 ** 53 - 1, -1, -12_345])
      expect(grouped(n)).toBe(fmtCount(n));
    expect(lateText(0)).toBe('under 1 ms late');
    expect(lateText(1000)).toBe('1\u202f000 ms late');
  });
});

describe('drr-lanes-deadlines: the lesson quotes what the page shows at pop 4', () => {
  const text = readFileSync(join(SCENARIO_DIR, 'drr-lanes-deadlines.yaml'), 'utf8');
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('drr-lanes-deadlines.yaml does not parse');
  const script = scriptWithPolicy(parsed.value, undefined);
  if (!script.ok) throw new Error('drr-lanes-deadlines.yaml does not validate');
  const session = new SandboxSession(script.value, 'lanes', '');
  const lines = [1, 2, 3, 4].map(() => session.step());
  const pop4 = lines[3];

  it('the log line lists b1 with its lateness, and the lesson quotes that ending', () => {
    const shed = 'shed past their due time, unserved and uncharged: b1 (batch, 1\u202f000 ms late)';
    expect(pop4?.summary.endsWith(shed)).toBe(true);
    const lesson = (script.value.description ?? '').replace(/\s+/g, ' ');
    expect(lesson).toContain(`"${shed.replace(/\s+/g, ' ')}"`);
    expect(lesson).toContain('the Explanation has a Shed step');
  });

  it('the explanation of pop 4 has the Shed step for b1 in batch', () => {
    const pop = pop4?.drr;
    if (!pop) throw new Error('pop 4 made no record');
    expect(explainDrrText(pop)).toContain(
      '2. Shed: b1 (1\u202f000 ms late) in batch was due before this pop, so batch drops it unserved',
    );
  });
});
