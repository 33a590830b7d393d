/** Which theorem covers a scenario, and its bound with the numbers filled in (hand-checked). */
import { describe, expect, it } from 'vitest';
import {
  type BoundSetup,
  chooseTheorem,
  type Formula,
  formulaText,
  groupNumber,
  theoremBound,
} from '../../../src/core/metrics/theorem-bound';

/** The formula as the run JSON prints it (thousands with commas). */
const plain = (f: Formula) => formulaText(f, groupNumber);

const base: BoundSetup = {
  policy: 'dlpm',
  routing: 'round-robin',
  workers: 1,
  quantum: 500,
  workerQuantum: 20_000,
  weights: { input: 1, output: 2 },
  kvTokens: 6000,
  quantumPerRequest: false,
};

const bound = (s: BoundSetup, lInput: number) => theoremBound(s, chooseTheorem(s), lInput);

describe('theorem bounds', () => {
  it('DLPM on one worker: 2·(U + Q^u) with U = w_e·L_input + w_q·M', () => {
    const b = bound(base, 600);
    expect(chooseTheorem(base).algorithm).toBe('dlpm');
    expect(b.U).toBe(12_600);
    expect(b.bound).toBe(26_200);
    expect(b.label).toBe('DLPM Theorem 4.1: 2·(U + Q^u)');
    // core hands out the numbers as numbers; whoever shows the formula prints them
    expect(b.formula).toEqual([
      'U = w_e·L_input + w_q·M = ',
      1,
      '·',
      600,
      ' + ',
      2,
      '·',
      6000,
      ' = ',
      12_600,
      '; bound = 2·(U + Q^u) = 2·(',
      12_600,
      ' + ',
      500,
      ') = ',
      26_200,
    ]);
    expect(plain(b.formula)).toBe(
      'U = w_e·L_input + w_q·M = 1·600 + 2·6,000 = 12,600; bound = 2·(U + Q^u) = 2·(12,600 + 500) = 26,200',
    );
    expect(formulaText(b.formula, (v) => `<${v}>`)).toBe(
      'U = w_e·L_input + w_q·M = <1>·<600> + <2>·<6000> = <12600>; bound = 2·(U + Q^u) = 2·(<12600> + <500>) = <26200>',
    );
  });

  it('DoubleQ over DLPM workers: 2·|W|·(U + Q^u); Q^w is shown but not in the bound', () => {
    const s = { ...base, routing: 'doubleq', workers: 4 };
    const b = bound(s, 600);
    expect(chooseTheorem(s).algorithm).toBe('doubleq');
    expect(b.bound).toBe(2 * 4 * (12_600 + 500));
    expect(plain(b.formula)).toContain('2·4·(12,600 + 500) = 104,800');
    expect(plain(b.formula)).toContain('Q^w = 20,000');
    // |W| is a number too
    expect(b.formula).toContain(4);
    expect(chooseTheorem({ ...s, policy: 'vtc' }).algorithm).toBeNull();
  });

  it('VTC: 2·max(w_e·L_input, w_q·M), times |W| behind per-client round-robin', () => {
    const vtc = { ...base, policy: 'vtc' };
    expect(bound(vtc, 600).bound).toBe(24_000);
    expect(bound({ ...vtc, kvTokens: 100 }, 600).bound).toBe(1200); // the input term wins
    const rr = { ...vtc, workers: 3, routing: 'per-client-rr' };
    expect(chooseTheorem(rr).theorem).toContain('Appendix A.3');
    expect(bound(rr, 600).bound).toBe(3 * 24_000);
    expect(plain(bound(rr, 600).formula)).toBe(
      'U = max(w_e·L_input, w_q·M) = max(1·600, 2·6,000) = 12,000; bound = |W|·2·U = 3·2·12,000 = 72,000',
    );
  });

  it('VTC with client weights, or with output_charge: finish, claims no bound', () => {
    const vtc = { ...base, policy: 'vtc' };
    expect(chooseTheorem({ ...vtc, clientWeighted: false }).algorithm).toBe('vtc');
    const weighted = chooseTheorem({ ...vtc, clientWeighted: true });
    expect(weighted.algorithm).toBeNull();
    expect(weighted.reason).toMatch(/client_weights.*gaps are measured, not bounded/);
    expect(chooseTheorem({ ...vtc, outputService: 'finish' }).algorithm).toBeNull();
    expect(chooseTheorem({ ...vtc, outputService: 'decode' }).reason).toMatch(/first output token/);
  });

  it('no theorem: other schedulers, or DLPM/VTC across workers behind another router', () => {
    for (const s of [
      { ...base, policy: 'lpm' },
      { ...base, policy: 'fcfs', routing: 'doubleq' },
      { ...base, workers: 2 },
      { ...base, policy: 'vtc', workers: 2, routing: 'least-loaded' },
    ]) {
      const b = bound(s, 600);
      expect(chooseTheorem(s).algorithm).toBeNull();
      expect(b.bound).toBeNull();
      expect(b.formula).toHaveLength(1);
      expect(plain(b.formula)).toMatch(/gaps are measured, not bounded/);
    }
    expect(plain(bound({ ...base, workers: 2 }, 600).formula)).toContain('DoubleQ routing (Theorem 5.1)');
  });

  it('the broken DLPM keeps the real bound and is flagged', () => {
    const s = { ...base, quantumPerRequest: true };
    expect(chooseTheorem(s).broken).toBe(true);
    expect(bound(s, 600).bound).toBe(26_200);
    expect(chooseTheorem({ ...s, policy: 'vtc' }).broken).toBe(false);
  });

  it('groups digits without the locale', () => {
    expect(groupNumber(0)).toBe('0');
    expect(groupNumber(999)).toBe('999');
    expect(groupNumber(1000)).toBe('1,000');
    expect(groupNumber(1234567)).toBe('1,234,567');
    expect(groupNumber(-4800)).toBe('−4,800');
    expect(groupNumber(1234.5)).toBe('1,234.5');
    expect(groupNumber(0.25)).toBe('0.25');
  });
});
