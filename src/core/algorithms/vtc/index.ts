/** VTC, the Virtual Token Counter (Sheng et al., OSDI'24): the client with the least service first. */
import { z } from 'zod';
import { int, name, num } from '../../zod-fields';
import { defineScheduler } from '../descriptor';
import { explainVtcAdmit } from './explain';
import { VtcPolicy } from './policy';

export type { VtcAdmitDetail } from './detail';

/**
 * `scheduler.client_weights`: client name -> fair weight (the scenario checks name declared clients).
 * At least 1/1000: a charge is divided by the weight, and a weight near 0 (1e-320 is > 0) made the
 * client's counter Infinity after its first charge.
 */
export const vtcClientWeights = z
  .record(name('client_weights key'), num('client weight', 0.001, 1000), {
    error: 'client_weights must be a mapping of client names to weights',
  })
  .default({})
  .meta({
    description:
      "vtc: client name -> fair weight (0.001 to 1000; clients not listed have 1). Every charge to a client's counter is divided by its weight, as the VTC artifact's --fair-weights does, so a backlogged client of weight 2 gets twice the service of one of weight 1.",
  });

export const vtc = defineScheduler({
  name: 'vtc',
  summary: 'the waiting client with the smallest virtual token counter first, head-of-line (VTC)',
  params: {
    charge: z
      .enum(['input', 'extend'], { error: "charge must be 'input' or 'extend'" })
      .default('input')
      .meta({
        description:
          "vtc: what admission charges to the client's counter: 'input' (default) w_e × the whole prompt, as the VTC artifact does; 'extend' w_e × the uncached part only (the DLPM paper's system-view cost).",
      }),
    output_charge: z
      .enum(['decode', 'token', 'finish'], { error: "output_charge must be 'decode', 'token' or 'finish'" })
      .default('token')
      .meta({
        description:
          "vtc: what output charges to the client's counter: 'token' (default) w_q per output token as generated, the first (which ends prefill) included: the VTC paper's cost; 'decode' w_q per decode step, so the token that ends prefill is free and n output tokens cost (n − 1)·w_q, as the VTC artifact's scheduler charges; 'finish' as 'decode', plus w_q once more to every request of a step in which one of them finishes (the artifact's June 2024 revision).",
      }),
    client_weights: vtcClientWeights,
    max_wait_steps: int('max_wait_steps', 0, 1_000_000).default(0).meta({
      description:
        "vtc: S-LoRA's admission cadence, as the VTC artifact's router runs it (max_wait_tokens = 10 there): while requests run, admission is tried only once this many batch steps have ended since the last step that admitted, then every step until one admits; with nothing running, at once. 0 (default): every step.",
    }),
  },
  state: (p) => (p instanceof VtcPolicy ? p.describe() : undefined),
  create: (cfg) =>
    new VtcPolicy(
      cfg,
      cfg.params.charge,
      cfg.params.output_charge,
      cfg.params.client_weights,
      cfg.params.max_wait_steps,
    ),
  explain: (d) => (d.algo === 'vtc' ? explainVtcAdmit(d) : null),
  bound: { label: 'VTC', theorem: 'VTC service bound', shape: 'vtc' },
});
