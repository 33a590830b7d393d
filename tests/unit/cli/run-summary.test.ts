import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { formatGuarantee } from '../../../src/cli/run-summary';
import type { RunResult } from '../../../src/core/sim';
import { readFileSync } from 'node:fs';

type G = RunResult['guarantee'];
const base: G = {
  algorithm: 'dlpm',
  theorem: 'DLPM Theorem 4.1',
  bound: 26200,
  formula: '2·(U + Q^u)',
  broken: false,
  violations: 0,
  first_violation: null,
};
const line = (g: Partial<G>, gap = 2414) =>
  formatGuarantee({ guarantee: { ...base, ...g }, max_backlogged_service_gap: gap });

describe('run summary: the guarantee line', () => {
  it('theorem, bound, measured gap and no violations', () => {
    expect(line({})).toBe('guarantee DLPM Theorem 4.1: bound 26,200; max gap 2,414; no violations');
  });
  it('counts violations and gives the first with its time, pair and numbers', () => {
    expect(
      line(
        {
          broken: true,
          violations: 2,
          first_violation: { t: 4.0456, clients: ['alice', 'hog'], gap: 26258, bound: 26200 },
        },
        244562,
      ),
    ).toBe(
      'guarantee DLPM Theorem 4.1 (deliberately broken variant): bound 26,200; max gap 244,562; 2 violations, first at 4.046 s (alice vs hog: gap 26,258 > 26,200)',
    );
    expect(line({ violations: 1 })).toBe(
      'guarantee DLPM Theorem 4.1: bound 26,200; max gap 2,414; 1 violation',
    );
  });
  it('says when no theorem applies', () => {
    expect(line({ algorithm: null, theorem: 'none', bound: null }, 5521)).toBe(
      'guarantee no theorem applies; max gap 5,521',
    );
  });
  it('is part of the readable run output', async () => {
    const io = memoryIO({ 'g.yaml': readFileSync('scenarios/guarantee-dlpm.yaml', 'utf8') });
    expect(await runCommand(['g.yaml'], io)).toBe(0);
    const out = io.stdout.join('');
    expect(out).toMatch(/\nguarantee DLPM Theorem 4\.1: bound [\d,]+; max gap [\d,]+; no violations\n/);
  });
});

describe('run summary: the class service table', () => {
  it('lists the classes that saw requests, with shares as percentages; none without a policy queue', async () => {
    const { formatClasses } = await import('../../../src/cli/run-summary');
    const row = (over: Record<string, number | null | boolean>) => ({
      served_uncached_tokens: 0,
      share: 0,
      quantum_share: null,
      dispatched: 0,
      rejected: 0,
      p99_queue_wait_s: null,
      shed: 0,
      quantum: 1,
      queued: 0,
      backlogged_s: 0,
      backlogged: false,
      charged_cost: 0,
      contended_cost: 0,
      contended_share: null,
      contended_quantum_share: null,
      ...over,
    });
    const out = formatClasses({
      classes: {
        cached: row({
          quantum: 2048,
          served_uncached_tokens: 1500,
          share: 0.75,
          quantum_share: 0.8,
          contended_share: 0.7,
          contended_quantum_share: 0.8,
          dispatched: 3,
        }),
        idle: row({}),
        uncached: row({
          quantum: 512,
          served_uncached_tokens: 500,
          share: 0.25,
          quantum_share: 0.2,
          contended_share: 0.3,
          contended_quantum_share: 0.2,
          rejected: 2,
          dispatched: 1,
        }),
      } as never,
    });
    expect(out[1]).toMatch(
      /^class\s+quantum\s+uncached served\s+share\s+quantum share\s+contended share\s+its quantum share/,
    );
    // the whole-run share beside its prediction for the backlogged classes, then the share of DRR's
    // charge while another class was queued beside what the quanta predict for those pops
    expect(out.slice(3, 5).map((l) => l.split(/\s+/).slice(0, 9))).toEqual([
      ['cached', '2,048', '1,500', '75.0%', '80.0%', '70.0%', '80.0%', '3', '0'],
      ['uncached', '512', '500', '25.0%', '20.0%', '30.0%', '20.0%', '1', '2'],
    ]);
    expect(out.join('\n')).not.toMatch(/idle|shed/);
    expect(formatClasses({})).toEqual([]);
    // a class whose requests were all shed for a passed due time is listed, with a shed (429) column
    const shedOut = formatClasses({ classes: { late: row({ quantum: 8, shed: 3 }) } as never });
    expect(shedOut[1]).toMatch(/\brejected\s+shed \(429\)\s+wait p99$/);
    expect(shedOut[3].split(/\s+/)).toEqual(['late', '8', '0', '0.0%', '-', '-', '-', '0', '0', '3', '-']);
  });
});

describe("run summary: Jain's index where it says nothing (#15)", () => {
  const oneClient = [
    'version: 1',
    'name: one',
    'duration_s: 5',
    'cluster: {workers: 1, gpu: a10g-24gb, model: llama-3.1-8b}',
    'router: {routing: round-robin}',
    'scheduler: {policy: fcfs}',
    'clients:',
    '  - name: a',
    '    arrival: { process: poisson, rate: 2 }',
    '    program: { type: single, prompt_tokens: 16, output_tokens: 16 }',
    '',
  ].join('\n');
  it('prints n/a as the playground does, and the JSON keeps jain_index with what it compares', async () => {
    const text = memoryIO({ 's.yaml': oneClient });
    expect(await runCommand(['s.yaml'], text)).toBe(0);
    expect(text.stdout.join('')).toContain(
      'fairness  Jain n/a — needs two active clients and some service (jain_index 1.000 by convention), max',
    );
    const json = memoryIO({ 's.yaml': oneClient });
    expect(await runCommand(['s.yaml', '--json'], json)).toBe(0);
    const r = JSON.parse(json.stdout.join('')) as RunResult;
    expect(r.jain_index).toBe(1);
    expect(r.jain_clients).toBe(1);
    expect(r.jain_clients_served).toBe(1);
  });
  it('prints the number when two clients are compared', async () => {
    const io = memoryIO({ 'g.yaml': readFileSync('scenarios/guarantee-dlpm.yaml', 'utf8') });
    expect(await runCommand(['g.yaml'], io)).toBe(0);
    expect(io.stdout.join('')).toMatch(
      /\nfairness {2}Jain [01]\.\d{3} \(client view; system view [01]\.\d{3}\), max/,
    );
  });
});

describe('run summary: the rates line', () => {
  // The summary's bare "tok/s" was tokens_per_s (prompt tokens computed + output, 2,866 on
  // fig1-kv-pressure), not the throughput the lessons, README and the Sweep quote
  // (completed_tokens_per_s, 13,330): a user could not find the lesson's figure in the summary.
  it('gives the throughput run --json gives as completed_tokens_per_s, and names the computed tokens apart', async () => {
    const text = readFileSync('scenarios/guarantee-dlpm.yaml', 'utf8').replace(
      /^duration_s: .*$/m,
      'duration_s: 5',
    );
    const io = memoryIO({ 'g.yaml': text });
    expect(await runCommand(['g.yaml'], io)).toBe(0);
    const summary = io.stdout.join('');
    const json = memoryIO({ 'g.yaml': text });
    expect(await runCommand(['g.yaml', '--json'], json)).toBe(0);
    const t: RunResult['throughput'] = JSON.parse(json.stdout.join('')).throughput;
    const n = (x: number) => Math.round(x).toLocaleString('en-US');
    const rates = summary.split('\n').find((l) => l.startsWith('rates '));
    expect(rates).toBe(
      `rates     ${t.requests_per_s.toFixed(2)} req/s, throughput ${n(t.completed_tokens_per_s)} tok/s (prompt + output of completed requests), computed ${n(t.tokens_per_s)} tok/s (uncached prompt + output), service ${n(t.service_per_s)}/s`,
    );
    // the two quantities differ here, so the line cannot pass by showing one of them twice
    expect(n(t.completed_tokens_per_s)).not.toBe(n(t.tokens_per_s));
  });
});
