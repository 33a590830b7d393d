import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/prng';
import {
  createWorkload,
  fullContext,
  outputTokenIds,
  type RequestSpec,
} from '../../../src/core/workload/index';
import { commonPrefix, drive, oneClient, scenarioOf, startsWith } from './helpers';

function byId(subs: { request: RequestSpec }[]): Map<string, RequestSpec> {
  return new Map(subs.map((s) => [s.request.id, s.request]));
}

describe('single', () => {
  it('prompt = shared system prompt + own tokens, total prompt_tokens', () => {
    const { submitted } = drive(
      oneClient({ type: 'single', prompt_tokens: 300, output_tokens: 7, shared_prefix_tokens: 100 }),
    );
    expect(submitted.length).toBe(10);
    const [a, b] = submitted.map((s) => s.request);
    expect(a.tokens.length).toBe(300);
    expect(a.outputTokens).toBe(7);
    expect(commonPrefix(a.tokens, b.tokens)).toBe(100);
    expect(a.id).toBe('alice#0.0');
    expect(a.program).toBe('alice#0');
  });
  it('keeps at least one own token when the system prompt is as long as the prompt', () => {
    const { submitted } = drive(oneClient({ type: 'single', prompt_tokens: 50, shared_prefix_tokens: 80 }));
    expect(submitted[0].request.tokens.length).toBe(81);
  });
});

describe('multi-turn', () => {
  const scenario = oneClient({
    type: 'multi-turn',
    turns: 3,
    prompt_tokens: 20,
    output_tokens: 10,
    think_time_s: 2,
    shared_prefix_tokens: 50,
  });
  const { submitted, waiting } = drive(scenario, 1);
  const conv = submitted.filter((s) => s.request.program === 'alice#0');

  it('each turn starts with the previous turn’s full context (prompt + reply), then new tokens', () => {
    expect(conv.map((s) => s.request.node)).toEqual(['turn 1', 'turn 2', 'turn 3']);
    expect(conv.map((s) => s.request.tokens.length)).toEqual([70, 100, 130]);
    for (let k = 1; k < conv.length; k++) {
      const prev = conv[k - 1].request;
      expect(startsWith(conv[k].request.tokens, fullContext(prev))).toBe(true);
      const reply = outputTokenIds(prev);
      expect(
        Array.from(conv[k].request.tokens.subarray(prev.tokens.length, prev.tokens.length + 10)),
      ).toEqual(Array.from(reply));
    }
  });
  it('the next turn is submitted at reply completion + think time', () => {
    // turn 1 at t=0, completes at 1, think 2 → 3; completes 4 → turn 3 at 6.
    expect(conv.map((s) => s.t)).toEqual([0, 3, 6]);
  });
  it('conversations share the system prompt only', () => {
    const other = submitted.find((s) => s.request.program === 'alice#1')!.request;
    expect(commonPrefix(conv[0].request.tokens, other.tokens)).toBe(50);
  });
  it('forgets finished conversations', () => {
    expect(waiting).toBe(0);
    expect(submitted.length).toBe(30);
  });
});

describe('tree-of-thought', () => {
  const scenario = oneClient({
    type: 'tree-of-thought',
    depth: 3,
    branching: 2,
    question_tokens: 40,
    thought_tokens: 8,
    answer_tokens: 5,
    step_tokens: 3,
  });

  it('submits Σ b^d requests per tree and children only after their parent completes', () => {
    const w = createWorkload(scenario, new Rng(1));
    const first = w.onArrival('alice', 0);
    expect(first.submit.map((r) => r.id)).toEqual(['alice#0.0', 'alice#0.1']);
    expect(first.submit.map((r) => r.node)).toEqual(['depth 1 branch 0', 'depth 1 branch 1']);
    const kids = w.onComplete('alice#0.0', 1.5);
    expect(kids.map((e) => e.t)).toEqual([1.5, 1.5]);
    const kidReqs = kids.map((e) => (e.kind === 'submit' ? e.request : null)!);
    expect(kidReqs.map((r) => r.id)).toEqual(['alice#0.0.0', 'alice#0.0.1']);
    // Completing the same parent twice gives nothing more.
    expect(w.onComplete('alice#0.0', 2)).toEqual([]);
    // Leaves have no children.
    const leaves = w.onComplete('alice#0.0.0', 2);
    expect(leaves.length).toBe(2);
    for (const e of leaves) {
      if (e.kind !== 'submit') throw new Error('expected submits');
      expect(e.request.outputTokens).toBe(5);
      expect(w.onComplete(e.request.id, 3)).toEqual([]);
    }
    const { submitted } = drive(scenario);
    expect(submitted.filter((s) => s.request.program === 'alice#0').length).toBe(2 + 4 + 8);
  });

  it('a child extends its parent’s full context; siblings share it and differ after', () => {
    const { submitted } = drive(scenario);
    const reqs = byId(submitted);
    const parent = reqs.get('alice#0.1')!;
    const a = reqs.get('alice#0.1.0')!;
    const b = reqs.get('alice#0.1.1')!;
    expect(parent.tokens.length).toBe(40 + 3);
    expect(a.tokens.length).toBe(43 + 8 + 3);
    expect(startsWith(a.tokens, fullContext(parent))).toBe(true);
    expect(commonPrefix(a.tokens, b.tokens)).toBe(51);
    // The two first-level thoughts share the question.
    expect(commonPrefix(reqs.get('alice#0.0')!.tokens, parent.tokens)).toBe(40);
    // Different trees share nothing.
    expect(commonPrefix(reqs.get('alice#1.0')!.tokens, parent.tokens)).toBe(0);
  });

  it('S1/S2 are parameters: 4 branches of depth 4 make 340 requests per tree', () => {
    const s = oneClient({
      type: 'tree-of-thought',
      depth: 4,
      branching: 4,
      question_tokens: 10,
      thought_tokens: 2,
      answer_tokens: 2,
    });
    const { submitted } = drive({ ...s, duration_s: 1 });
    expect(submitted.length).toBe(340);
  });
});

describe('judge', () => {
  const scenario = oneClient({
    type: 'judge',
    dimensions: 3,
    article_tokens: 500,
    extra_prefix_tokens: 60,
    instruction_tokens: 10,
    output_tokens: 20,
    merge_output_tokens: 30,
  });

  it('branches share extra prefix + article; the merge waits for every branch', () => {
    const w = createWorkload(scenario, new Rng(1));
    const { submit } = w.onArrival('alice', 0);
    expect(submit.map((r) => r.node)).toEqual(['dimension 0', 'dimension 1', 'dimension 2']);
    expect(submit[0].tokens.length).toBe(570);
    expect(commonPrefix(submit[0].tokens, submit[1].tokens)).toBe(560);
    expect(w.onComplete(submit[0].id, 1)).toEqual([]);
    expect(w.onComplete(submit[2].id, 2)).toEqual([]);
    const merge = w.onComplete(submit[1].id, 3);
    expect(merge.length).toBe(1);
    const m = merge[0];
    if (m.kind !== 'submit') throw new Error('expected a submit');
    expect(m.t).toBe(3);
    expect(m.request.node).toBe('merge');
    expect(m.request.outputTokens).toBe(30);
    expect(m.request.tokens.length).toBe(560 + 3 * 20 + 10);
    expect(commonPrefix(m.request.tokens, submit[0].tokens)).toBe(560);
    // The merge prompt holds each branch's output, in dimension order, after the article.
    for (let i = 0; i < 3; i++) {
      const out = outputTokenIds(submit[i]);
      expect(Array.from(m.request.tokens.subarray(560 + 20 * i, 580 + 20 * i))).toEqual(Array.from(out));
    }
    expect(w.waiting()).toBe(0);
  });

  it('the extra prefix is the same for every article; articles differ', () => {
    const { submitted } = drive(scenario);
    const a = submitted.find((s) => s.request.id === 'alice#0.0')!.request;
    const b = submitted.find((s) => s.request.id === 'alice#1.0')!.request;
    expect(commonPrefix(a.tokens, b.tokens)).toBe(60);
  });

  it('a rejected branch abandons the merge and frees the instance', () => {
    const w = createWorkload(scenario, new Rng(1));
    const { submit } = w.onArrival('alice', 0);
    w.onReject(submit[1].id, 0.5);
    expect(w.onComplete(submit[0].id, 1)).toEqual([]);
    expect(w.onComplete(submit[2].id, 1)).toEqual([]);
    expect(w.waiting()).toBe(0);
  });
});

describe('long-qa', () => {
  it('every question = the document + its own question tokens', () => {
    const { submitted } = drive(
      oneClient({
        type: 'long-qa',
        document_tokens: 1000,
        questions: 4,
        question_tokens: 12,
        output_tokens: 3,
      }),
    );
    const inst = submitted.filter((s) => s.request.program === 'alice#0').map((s) => s.request);
    expect(inst.length).toBe(4);
    expect(new Set(submitted.filter((s) => s.request.program === 'alice#0').map((s) => s.t))).toEqual(
      new Set([0]),
    );
    for (const q of inst) expect(q.tokens.length).toBe(1012);
    expect(commonPrefix(inst[0].tokens, inst[3].tokens)).toBe(1000);
    const next = submitted.find((s) => s.request.program === 'alice#1')!.request;
    expect(commonPrefix(inst[0].tokens, next.tokens)).toBe(0);
  });
  it('a document library reuses documents across arrivals', () => {
    const { submitted } = drive(
      oneClient({
        type: 'long-qa',
        document_tokens: { dist: 'uniform', min: 500, max: 900 },
        questions: 1,
        documents: 2,
      }),
    );
    const prefixes = new Set<string>();
    for (const s of submitted) prefixes.add(Array.from(s.request.tokens.subarray(0, 400)).join(','));
    expect(prefixes.size).toBeLessThanOrEqual(2);
    expect(submitted.length).toBe(10);
  });
});

describe('prefix_group', () => {
  const twoClients = (group: string | undefined, program: Record<string, unknown>) =>
    scenarioOf({
      duration_s: 3,
      clients: ['alice', 'bob'].map((name) => ({
        name,
        ...(group ? { prefix_group: group } : {}),
        arrival: { process: 'constant', rate: 1 },
        program,
      })),
    });
  const firstOf = (subs: { request: RequestSpec }[], client: string) =>
    subs.find((s) => s.request.client === client)!.request;

  it('clients in the same group share identical system prompts; others do not', () => {
    const program = { type: 'multi-turn', turns: 1, prompt_tokens: 10, shared_prefix_tokens: 300 };
    const grouped = drive(twoClients('assistant', program)).submitted;
    expect(commonPrefix(firstOf(grouped, 'alice').tokens, firstOf(grouped, 'bob').tokens)).toBe(300);
    const apart = drive(twoClients(undefined, program)).submitted;
    expect(commonPrefix(firstOf(apart, 'alice').tokens, firstOf(apart, 'bob').tokens)).toBe(0);
  });
  it('a shared document library gives both clients the same documents', () => {
    const program = { type: 'long-qa', document_tokens: 800, questions: 1, documents: 1 };
    const grouped = drive(twoClients('corpus', program)).submitted;
    expect(commonPrefix(firstOf(grouped, 'alice').tokens, firstOf(grouped, 'bob').tokens)).toBe(800);
  });
});

describe('scripted requests', () => {
  const scenario = scenarioOf({
    duration_s: 10,
    clients: [
      {
        name: 'alice',
        slo_class: 'critical',
        policy_class: 'latency',
        arrival: { process: 'trace', times: [] },
        program: { type: 'single' },
      },
    ],
    requests: [
      {
        t: 2,
        client: 'alice',
        prompt_tokens: 700,
        shared_prefix: 'doc-1',
        shared_prefix_tokens: 600,
        output_tokens: 16,
      },
      {
        t: 1,
        client: 'zoe',
        prompt_tokens: 650,
        shared_prefix: 'doc-1',
        shared_prefix_tokens: 600,
        output_tokens: 4,
        policy_class: 'batch',
        id: 'z1',
      },
    ],
  });
  it('become submit events in time order, sharing the named prefix across clients', () => {
    const w = createWorkload(scenario, new Rng(1));
    expect(w.clients).toEqual(['alice', 'zoe']);
    const evs = w.initialEvents();
    const reqs = evs.map((e) => (e.kind === 'submit' ? e.request : null)!);
    expect(evs.map((e) => e.t)).toEqual([1, 2]);
    expect(reqs.map((r) => r.id)).toEqual(['z1', 'alice!0']);
    expect(reqs[1].tokens.length).toBe(700);
    expect(commonPrefix(reqs[0].tokens, reqs[1].tokens)).toBe(600);
    expect(reqs[1].sloClass).toBe('critical');
    expect(reqs[1].policyClass).toBe('latency');
    expect(reqs[0].sloClass).toBe('standard');
    expect(reqs[0].policyClass).toBe('batch');
    expect(w.onComplete('z1', 3)).toEqual([]);
  });
});
