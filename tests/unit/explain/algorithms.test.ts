import { describe, expect, it } from 'vitest';
import {
  type DlpmAdmitDetail,
  type DoubleQDispatchDetail,
  explainDecision,
  explainDecisionText,
  type PreblePlacementDetail,
  stepsToText,
  type VtcAdmitDetail,
} from '../../../src/core/explain';
import { ArbitrationSession } from '../../../src/core/drr';
import { validateScriptText } from '../../../src/policy';

describe('DLPM admission', () => {
  const detail: DlpmAdmitDetail = {
    algo: 'dlpm',
    worker: 1,
    quantum: 2500,
    order: [
      { request: 'r3', client: 'alice', prefix_match: 512, deficit: 1200, outcome: 'admitted', charge: 488 },
      { request: 'r1', client: 'bob', prefix_match: 64, deficit: -40, outcome: 'no-deficit' },
      { request: 'r5', client: 'alice', prefix_match: 0, deficit: 712, outcome: 'no-room' },
    ],
    skipped: [{ client: 'bob', deficit: -40 }],
    admitted: ['r3'],
  };

  it('walks the prefix order, the skipped client and the admission with its charge', () => {
    expect(explainDecisionText({ kind: 'admit', summary: 'w1 admits r3', detail })).toBe(
      [
        "1. Order: the waiting requests on worker 1 sorted by cached prefix, longest first: r3 of alice (512 tokens cached, deficit 1200), r1 of bob (64 tokens cached, deficit -40), r5 of alice (0 tokens cached, deficit 712). Each deficit is its client's value at the moment the scan reached that request: alice's deficits (1200, 712) are its values at successive moments of this one batch step, as admissions in the step charged it and any refill topped it up.",
        '2. bob is skipped: its deficit is -40, not positive, so its requests wait.',
        "3. r3 (alice) is admitted: alice's deficit 1200 is positive and the request fits; alice is charged 488 (deficit 1200 → 712).",
        '4. r5 (alice) does not fit in this step (token budget, running limit or KV memory), so it waits.',
        'Result: admitted r3 on worker 1.',
      ].join('\n'),
    );
    const steps = explainDecision({ kind: 'admit', summary: '', detail });
    expect(steps[1].ref).toEqual({ kind: 'client', name: 'bob' });
  });

  it('explains the refill and links it to scheduler.quantum', () => {
    const refill: DlpmAdmitDetail = {
      algo: 'dlpm',
      order: [{ request: 'q0', client: 'carol', prefix_match: 0, deficit: 0, outcome: 'no-deficit' }],
      skipped: [{ client: 'carol', deficit: 0 }],
      refill: { quantum: 2500, clients: ['carol', 'dave'] },
      admitted: [],
    };
    const steps = explainDecision({ kind: 'admit', summary: '', detail: refill });
    expect(stepsToText(steps)).toBe(
      [
        '1. Order: the waiting requests sorted by cached prefix, longest first: q0 of carol (0 tokens cached, deficit 0).',
        '2. carol is skipped: its deficit is 0, not positive, so its requests wait.',
        '3. Refill: no client with waiting requests had a positive deficit, so every client at or below 0 gets the quantum Q^u = 2500: carol and dave.',
        'Result: nothing admitted this step.',
      ].join('\n'),
    );
    expect(steps[2].ref).toEqual({ kind: 'param', name: 'scheduler.quantum' });
  });

  it('says why one client shows several deficits, and which requests were admitted earlier in the step', () => {
    // tester F8: decision #417 of default listed mallory at 1031, 2283, 883, 883 with no word why
    const text = explainDecision({
      kind: 'admit',
      summary: '',
      detail: {
        algo: 'dlpm',
        worker: 0,
        order: [
          { request: 'm63', client: 'mallory', prefix_match: 0, deficit: 1031 },
          { request: 'm64', client: 'mallory', prefix_match: 0, deficit: 2283 },
          {
            request: 'm67',
            client: 'mallory',
            prefix_match: 0,
            deficit: 883,
            outcome: 'admitted',
            charge: 1477,
          },
          { request: 'm68', client: 'mallory', prefix_match: 0, deficit: 883, outcome: 'not-reached' },
          { request: 'b1', client: 'bob', prefix_match: 0, deficit: 40, outcome: 'not-reached' },
        ],
        skipped: [],
        admitted: ['m63', 'm64', 'm67'],
      },
    })[0].text;
    expect(text).toContain('m63 of mallory (0 tokens cached, deficit 1031, admitted earlier in this step)');
    expect(text).toContain('m68 of mallory (0 tokens cached, deficit 883)');
    expect(text).toContain(
      "mallory's deficits (1031, 2283, 883, 883) are its values at successive moments of this one batch step",
    );
    // bob's one value needs no note
    expect(text).not.toContain("bob's deficits");
  });

  it('lists at most eight waiting requests', () => {
    const order = Array.from({ length: 11 }, (_, i) => ({
      request: `r${i}`,
      client: 'c',
      prefix_match: 0,
      deficit: 1,
      outcome: 'not-reached' as const,
    }));
    const text = explainDecision({
      kind: 'admit',
      summary: '',
      detail: { algo: 'dlpm', order, skipped: [], admitted: [] },
    })[0].text;
    expect(text.endsWith('r7 of c (0 tokens cached, deficit 1), and 3 more.')).toBe(true);
  });
});

describe('DoubleQ dispatch', () => {
  const base: DoubleQDispatchDetail = {
    algo: 'doubleq',
    request: 'r9',
    client: 'alice',
    matched_tokens: 1024,
    g: [1, 3],
    g_avail: [0, 3],
    refills: 0,
    chosen: 3,
    queue_lens: [1, 0, 4, 2],
    deficits: { 0: 1200, 1: -300, 2: -5, 3: 500 },
  };

  it('locality wins when G and G_avail meet', () => {
    expect(explainDecisionText({ kind: 'dispatch', summary: 'r9 → w3', detail: base })).toBe(
      [
        '1. Prefix match: the workers holding the longest cached prefix of r9 (1024 tokens) are G = {w1 and w3}.',
        '2. Credit: the workers where alice still has a positive deficit are G_avail = {w0 and w3} (deficits w0 1200, w3 500).',
        '3. Choice: G ∩ G_avail = {w3} is not empty, so locality wins: the shortest queue among them is w3 (queue 2).',
        'Result: r9 goes to worker 3.',
      ].join('\n'),
    );
  });

  it('fairness wins when they do not, after refills', () => {
    const d: DoubleQDispatchDetail = {
      ...base,
      g: [2],
      g_avail: [0, 1, 3],
      refills: 2,
      worker_quantum: 20000,
      chosen: 1,
      deficits: { 0: 100, 1: 19700, 2: 0, 3: 300 },
    };
    const steps = explainDecision({ kind: 'dispatch', summary: '', detail: d });
    expect(steps.map((s) => s.text)).toEqual([
      'Prefix match: the workers holding the longest cached prefix of r9 (1024 tokens) are G = {w2}.',
      'Refill: alice had no worker with a positive deficit, so Q^w = 20000 was added to all of its worker deficits (2 times).',
      'Credit: the workers where alice still has a positive deficit are G_avail = {w0, w1 and w3} (deficits w0 100, w1 19700, w3 300).',
      'Choice: G ∩ G_avail is empty, so fairness wins over locality: the shortest queue in G_avail is w1 (queue 0).',
      'Result: r9 goes to worker 1.',
    ]);
    expect(steps[1].ref).toEqual({ kind: 'param', name: 'router.worker_quantum' });
  });
});

describe('VTC admission', () => {
  it('lowest counter first, with a lift and a charge', () => {
    const d: VtcAdmitDetail = {
      algo: 'vtc',
      counters: { alice: 1200, bob: 900, carol: 900 },
      chosen_client: 'bob',
      head: 'r7',
      head_fits: true,
      lifts: [{ client: 'bob', from: 0, to: 900 }],
      charge: 256,
    };
    expect(explainDecisionText({ kind: 'admit', summary: '', detail: d })).toBe(
      [
        '1. Counters of the clients with waiting requests, lowest first: bob 900, carol 900, alice 1200.',
        "2. bob's queue had been empty, so its counter is lifted from 0 to 900 (the smallest counter among the other waiting clients): idle time earns no credit.",
        '3. bob has the smallest counter (900), so r7 is next.',
        "4. r7 fits in this step, so it is admitted; bob's counter grows by 256 for its whole input, cached or not (charge: input, as the VTC artifact).",
        'Result: r7 from bob admitted.',
      ].join('\n'),
    );
  });

  it('head-of-line stop, and the empty case', () => {
    const stop = explainDecision({
      kind: 'admit',
      summary: '',
      detail: { algo: 'vtc', counters: { a: 5 }, chosen_client: 'a', head: 'a4', head_fits: false },
    });
    expect(stop.map((s) => s.text).slice(-2)).toEqual([
      'a4 does not fit in this step (token budget, running limit or KV memory), so admission stops here: VTC does not skip ahead of the head.',
      'Result: nothing more admitted; a4 waits for room.',
    ]);
    const none = explainDecisionText({
      kind: 'admit',
      summary: '',
      detail: { algo: 'vtc', counters: {}, chosen_client: null, head_fits: false },
    });
    expect(none).toBe('Result: no client has a waiting request, so nothing is admitted.');
  });
});

describe('Preble placement', () => {
  it('exploit: only the holders compete', () => {
    const d: PreblePlacementDetail = {
      algo: 'preble',
      request: 'r2',
      mode: 'exploit',
      matched_fraction: 0.62,
      matched_tokens: 620,
      prompt_len: 1000,
      holders: [1, 2],
      loads: [0.5, 3.25, 1.5],
      chosen: 2,
      load_kind: 'time',
      prefill_loads: [0.5, 1.25, 1.5],
      decode_loads: [0, 2, 0],
      window_s: 180,
      tpots: [0.02, 0.025, 0.03],
    };
    expect(explainDecisionText({ kind: 'dispatch', summary: '', detail: d })).toBe(
      [
        "1. Prefix match: 62% of r2's prompt (620 of 1000 tokens) is already cached in the cluster.",
        '2. That is more than half, so Preble exploits locality: only the workers holding the prefix compete (w1 and w2).',
        '3. Loads in predicted GPU time: the prefill time of what each request sent there in the last 180 s missed in the cache, plus its outstanding requests × their max_new_tokens × its measured time per output token: w1 3.250 s (prefill 1.250 s + decode 2.000 s, TPOT 25.0 ms), w2 1.500 s (prefill 1.500 s + decode 0.000 s, TPOT 30.0 ms); the least loaded is w2.',
        'Result: r2 goes to worker 2.',
      ].join('\n'),
    );
  });

  it('explore with a rebalance', () => {
    const steps = explainDecision({
      kind: 'dispatch',
      summary: '',
      detail: {
        algo: 'preble',
        mode: 'explore',
        matched_fraction: 0.1,
        loads: [2, 1],
        chosen: 1,
        rebalanced: true,
      },
    });
    expect(steps.map((s) => s.text)).toEqual([
      "Prefix match: 10% of the request's prompt is already cached in the cluster.",
      'That is half or less, so Preble explores: every worker competes.',
      'Loads in tokens (recent missed prefill tokens plus running requests × the median output): w0 2, w1 1; the least loaded is w1.',
      'Rebalance: the heaviest worker was too far above the lightest, so new work was moved away from it.',
      'Result: the request goes to worker 1.',
    ]);
  });
});

describe('explainDecision dispatch', () => {
  it('a DRR record is explained by the DRR explainer', () => {
    const parsed = validateScriptText(
      'policy: {policy_classes: [{name: A, quantum: 10}]}\nops:\n  - enqueue: {id: a0, class: A, cost: 3}\n  - pop: {}\n',
    );
    if (!parsed.ok) throw new Error('bad script');
    const s = new ArbitrationSession(parsed.value);
    s.step();
    const record = s.step()?.record;
    if (!record) throw new Error('no record');
    const direct = explainDecisionText(record);
    expect(direct).toBe(
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at A (the cursor).',
        '2. A: its head a0 costs 3, more than its 0 credit; A earns its quantum: 0 + 10 = 10 ≥ 3, so A dispatches a0.',
        "Result: a0 from A (cost 3); A's queue is now empty, so its credit resets to 0; the next scan starts at A.",
      ].join('\n'),
    );
  });

  it('other simulator records: summary, place and simple facts in key order', () => {
    expect(
      explainDecisionText({
        kind: 'preempt',
        summary: 'w0 preempts r4 (KV cache full)',
        t: 12.5,
        request: 'r4',
        client: 'bob',
        worker: 0,
        detail: { rule: 'fcfs', running: 3, kv_free_blocks: 0, generated: 7 },
      }),
    ).toBe(
      [
        '1. w0 preempts r4 (KV cache full)',
        '2. Preempt at t = 12.5 s, request r4, client bob, worker 0.',
        '3. Details: generated = 7; kv_free_blocks = 0; rule = fcfs; running = 3.',
      ].join('\n'),
    );
    expect(explainDecision({ kind: 'step', summary: 'w1 runs a step' })).toEqual([
      { text: 'w1 runs a step' },
    ]);
    expect(explainDecision({ kind: 'dispatch', summary: 's', client: 'c' })[1].ref).toEqual({
      kind: 'client',
      name: 'c',
    });
  });

  it('an admission without an algorithm detail gets its summary and facts', () => {
    const steps = explainDecision({
      kind: 'admit',
      summary: 'x',
      detail: {
        policy: 'fcfs',
        why: 'first in line',
        cached_tokens: 0,
        matched_node: null,
        prompt_tokens: 10,
        chunk: 10,
        kv_blocks: 1,
        waiting: 0,
      },
    });
    expect(steps[0].text).toBe('x');
    expect(steps[1].text).toContain('policy = fcfs');
  });
});

describe('explainDecision conveniences', () => {
  it('accepts the bare DRR record of the sandbox', () => {
    const parsed = validateScriptText(
      'policy: {policy_classes: [{name: A, quantum: 10}]}\nops:\n  - enqueue: {id: a0, class: A, cost: 3}\n  - pop: {}\n',
    );
    if (!parsed.ok) throw new Error('bad script');
    const s = new ArbitrationSession(parsed.value);
    s.step();
    const record = s.step()?.record;
    if (!record) throw new Error('no record');
    expect(explainDecisionText(record, { quanta: { A: 10 } })).toBe(
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at A (the cursor).',
        '2. A: its head a0 costs 3, more than its 0 credit; A earns its quantum: 0 + 10 = 10 ≥ 3, so A dispatches a0.',
        "Result: a0 from A (cost 3); A's queue is now empty, so its credit resets to 0; the next scan starts at A.",
      ].join('\n'),
    );
  });

  it('small number tables in a detail read as a/b pairs', () => {
    const steps = explainDecision({
      kind: 'dispatch',
      summary: 's',
      detail: {
        router: 'round-robin',
        why: null,
        overlap_tokens: 0,
        prompt_tokens: 5,
        worker_loads: [
          [3, 2],
          [0, 1],
        ],
      },
    });
    expect(steps[1].text).toBe(
      'Details: overlap_tokens = 0; prompt_tokens = 5; router = round-robin; worker_loads = [3/2, 0/1].',
    );
  });
});

describe('LPM admission', () => {
  it('says how the list is sorted, where the request stood, and the head-of-line stop (not a field dump)', () => {
    const detail = { algo: 'lpm' as const, prefix_match: 720, rank: 2, fcfs_fallback: false };
    const text = explainDecisionText({ kind: 'admit', summary: 'w0 admits ben#1', detail });
    expect(text).toContain(
      "1. LPM sorts this worker's waiting list at every step that admits, longest cached prefix first.",
    );
    expect(text).toContain('keep the order the list already had (not their arrival order)');
    expect(text).toContain("2. This request has 720 tokens of its prompt in this worker's prefix cache now.");
    expect(text).toContain(
      "3. It is number 3 in this step's order; the 2 before it were admitted in this step.",
    );
    expect(text).toContain('LPM stops at the first request that does not fit');
    expect(text).toMatch(/\nResult: admitted\.$/);
    expect(text).not.toContain('Details:');
  });

  it('under the FCFS fallback says the list is not sorted, and points at the threshold', () => {
    const detail = { algo: 'lpm' as const, prefix_match: 0, rank: 0, fcfs_fallback: true };
    const steps = explainDecision({ kind: 'admit', summary: '', detail });
    expect(steps[0].text).toContain('the list is not sorted this step');
    expect(steps[0].ref).toEqual({ kind: 'param', name: 'scheduler.lpm_fcfs_fallback' });
    expect(stepsToText(steps)).toContain("It is first in this step's order.");
  });
});
