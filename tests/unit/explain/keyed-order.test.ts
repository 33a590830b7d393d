/**
 * BLIS's and Vajra's fixed-key orders explain an admission in words (tryout): sjf and EDF gave a
 * `key = value` list (`new_token_ratio = 0.185`, `waiting = 17`), from which "shortest prompt first"
 * could not be checked. The account says the rule, this request's key, how many others waited with
 * what keys by the rule, and that the record does not hold their keys.
 */
import { describe, expect, it } from 'vitest';
import { explainDecision, explainDecisionText } from '../../../src/core/explain';

// an sjf admission as replica.ts records it: the policy's detail merged into the admission facts
const sjf = {
  policy: 'sjf',
  why: 'shortest prompt first (399 tokens)',
  cached_tokens: 0,
  matched_node: null,
  prompt_tokens: 399,
  chunk: 399,
  kv_blocks: 25,
  max_new_tokens: 300,
  output_estimate: 300,
  new_token_ratio: 0.185,
  waiting: 17,
  algo: 'sjf' as const,
  input_tokens: 399,
  arrival_s: 17.106,
};

describe('fixed-key admissions in words', () => {
  it('sjf: the rule, the prompt length, the others by the rule, and what the record lacks', () => {
    const text = explainDecisionText({ kind: 'admit', summary: 'worker 0 admits chat#460.0', detail: sjf });
    expect(text).toContain('sjf (BLIS) orders this worker');
    expect(text).toContain('This request: its prompt is 399 tokens (it arrived at t = 17.106 s).');
    expect(text).toContain(
      '17 other requests were still waiting when it was taken, and by the rule each has a prompt of at least 399 tokens',
    );
    expect(text).toContain('not their keys');
    expect(text).not.toMatch(/new_token_ratio|waiting =/);
  });

  it('EDF: the deadline from arrival and budget, linked to deadline_multiplier', () => {
    const detail = {
      ...sjf,
      policy: 'edf',
      algo: 'edf' as const,
      deadline_s: 12.75,
      arrival_s: 12.25,
      waiting: 0,
    };
    const steps = explainDecision({ kind: 'admit', summary: '', detail });
    const text = steps.map((s) => s.text).join('\n');
    expect(text).toContain('its deadline is t = 12.75 s');
    expect(text).toContain('a budget of 0.5 s');
    expect(text).toContain('No other request was waiting on this worker');
    expect(steps[0].ref).toEqual({ kind: 'param', name: 'scheduler.deadline_multiplier' });
  });

  it('LRS: the slack with its budget and predicted prefill, and the place in the step', () => {
    const detail = {
      ...sjf,
      algo: 'lrs' as const,
      slack: 0.42,
      deadline_budget_s: 0.5,
      remaining_prefill_s: 0.03,
      rank: 2,
    };
    const text = explainDecisionText({ kind: 'admit', summary: '', detail });
    expect(text).toContain(
      'This request: its slack was 0.42 (budget D = 0.5 s, predicted prefill R = 0.03 s).',
    );
    expect(text).toContain('It is number 3 admitted in this step; the 2 before it had less slack.');
    expect(text).toContain('each has a slack of at least 0.42 at that moment');
    expect(text).not.toMatch(/remaining_prefill_s =/);
  });

  it('priority-fcfs and reverse-priority name the priority and its direction', () => {
    const p = { ...sjf, algo: 'priority-fcfs' as const, priority: 1 };
    expect(explainDecisionText({ kind: 'admit', summary: '', detail: p })).toContain(
      'a priority of 1 or more',
    );
    const r = { ...sjf, algo: 'reverse-priority' as const, negated_priority: -5 };
    expect(explainDecisionText({ kind: 'admit', summary: '', detail: r })).toContain(
      'a priority of 5 or less',
    );
  });
});

describe('fcfs-mpq group sizes', () => {
  it("are the counts at the step's start, and say so (the worker view, after the step's admissions, showed 50 where this said 56)", () => {
    const detail = {
      algo: 'fcfs-mpq' as const,
      worker: 0,
      group: 0,
      group_sizes: [56],
      skipped_empty: [],
      limit: 128,
      hit_ratio: 0,
      cached: 0,
      rank: 0,
      admitted_before: 0,
      passed_over: 0,
    };
    const text = explainDecisionText({ kind: 'admit', summary: '', detail });
    expect(text).toContain("waiting at this step's start, before its admissions: group 0: 56.");
    expect(text).not.toContain('waiting now');
  });
});
