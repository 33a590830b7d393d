/**
 * Which fairness theorem covers a scenario, and its bound on the service gap between two continuously
 * backlogged clients, with the numbers filled in.
 *
 *   DLPM on one worker (seed 002, Theorem 4.1):   2·(U + Q^u),        U = w_e·L_input + w_q·M
 *   DoubleQ routing over DLPM workers (Thm 5.1):  2·|W|·(U + Q^u)
 *   VTC on one worker (VTC paper):                2·max(w_e·L_input, w_q·M)
 *   per-client round-robin over |W| VTC or DLPM workers (seed 002, Appendix A.3): |W| × the local bound
 *
 * Inputs, as the theorems define them:
 *   - L_input, the most input tokens one request has: the longest prompt admitted so far. The bound at
 *     time t only has to cover intervals ending at t, and only requests admitted by then were charged,
 *     so the running maximum is a valid (and the tightest) value; it only grows, so the bound does too.
 *   - M, the most tokens a running batch can hold: one worker's KV cache in tokens (whole blocks). In
 *     the proof, M caps the output tokens a client's already-running requests go on producing after its
 *     deficit is spent; those tokens all sit in the KV cache until the requests finish, so the cache,
 *     not the per-step token budget (max_batch_tokens), is what limits them.
 *   - Q^u = scheduler.quantum; Q^w (router.worker_quantum) decides where DoubleQ sends requests but
 *     does not appear in Theorem 5.1.
 *   - w_e, w_q = scheduler.weights.
 * Which theorem applies is read from the algorithm descriptors (src/core/algorithms): a scheduler's
 * `bound` and a routing's `composes`.
 * DoubleQ's theorem assumes each backlogged client is backlogged at every worker; here a client counts
 * as backlogged while any of its requests waits anywhere, so an unbalanced run can exceed the bound
 * without contradicting the theorem (the label says so).
 */
import {
  ROUTING_ALGORITHMS,
  routingAlgorithm,
  SCHEDULER_ALGORITHMS,
  schedulerAlgorithm,
} from '../algorithms/index';

/** The algorithm whose theorem applies: a scheduler with a bound, or a routing with its own theorem. */
export type GuaranteeAlgorithm = string;

/** The scenario facts a bound depends on. */
export interface BoundSetup {
  /** scheduler.policy */
  policy: string;
  /** router.routing */
  routing: string;
  workers: number;
  /** Q^u (DLPM's; 0 under other schedulers) */
  quantum: number;
  /** Q^w (shown only) */
  workerQuantum: number | null;
  weights: { input: number; output: number };
  /** M: one worker's KV capacity in tokens. */
  kvTokens: number;
  /** scheduler.dlpm_quantum_per_request: the deliberately broken DLPM. */
  quantumPerRequest: boolean;
  /**
   * What the scheduler charges per input token and so the service its bound holds for: 'extend'
   * (uncached tokens, the default) or 'input' (every prompt token: VTC with `charge: input`).
   */
  inputService?: 'extend' | 'input';
  /**
   * What the scheduler charges per output token: 'token' (every one, the default), 'decode' (all but
   * each request's first, the one its prefill produces: VTC's `output_charge: decode`), or 'finish'
   * (VTC's `output_charge: finish`, which also re-charges whole steps: no per-request service
   * matches its counters, so no bound is claimed).
   */
  outputService?: 'token' | 'decode' | 'finish';
  /** Some client has a fair weight other than 1 (VTC's `client_weights`): no bound is claimed. */
  clientWeighted?: boolean;
}

/** The theorem that applies (algorithm null: none does, `reason` says why). */
export interface TheoremChoice {
  algorithm: GuaranteeAlgorithm | null;
  /** Which statement: 'DLPM Theorem 4.1', 'DoubleQ Theorem 5.1', ... */
  theorem: string;
  /** |W| factor (1 on one worker). */
  factor: number;
  /** The local bound's shape: DLPM's 2·(U + Q^u) or VTC's 2·max(...). */
  shape: 'dlpm' | 'vtc' | null;
  reason: string;
  /** The run uses the broken DLPM variant (the bound is shown, violations are expected). */
  broken: boolean;
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The theorem for a scenario, from the algorithms' descriptors (their `bound` and `composes`). */
export function chooseTheorem(s: BoundSetup): TheoremChoice {
  const c = choose(s);
  if (c.algorithm === null) return c;
  const unbounded =
    s.clientWeighted === true
      ? 'client_weights: the counters compare service divided by each client’s weight, and the bound is stated for equal weights: gaps are measured, not bounded'
      : s.outputService === 'finish'
        ? 'output_charge: finish re-charges every request of a step in which one finishes, so the counters follow batch mates, not service: gaps are measured, not bounded'
        : null;
  if (unbounded !== null)
    return { algorithm: null, theorem: 'none', factor: 1, shape: null, reason: unbounded, broken: c.broken };
  const notes: string[] = [];
  if (s.inputService === 'input')
    notes.push('gaps count whole prompts, cached or not, as the scheduler charges them (charge: input)');
  if (s.outputService === 'decode')
    notes.push(
      "gaps leave out each request's first output token, which the scheduler does not charge (output_charge: decode)",
    );
  return notes.length === 0 ? c : { ...c, reason: `${c.reason}; ${notes.join('; ')}` };
}

function choose(s: BoundSetup): TheoremChoice {
  const W = s.workers;
  const broken = s.policy === 'dlpm' && s.quantumPerRequest;
  const none = (reason: string): TheoremChoice => ({
    algorithm: null,
    theorem: 'none',
    factor: 1,
    shape: null,
    reason,
    broken,
  });
  const bound = schedulerAlgorithm(s.policy)?.bound;
  if (bound === undefined) {
    const owners = [
      ...SCHEDULER_ALGORITHMS.flatMap((d) => ('bound' in d && d.bound ? [d.bound.label] : [])).sort(),
      ...ROUTING_ALGORITHMS.flatMap((d) =>
        'composes' in d && d.composes?.kind === 'own' ? [d.composes.label] : [],
      ),
    ];
    return none(
      `no fairness theorem covers the ${s.policy} scheduler (${listed(owners)} have one): gaps are measured, not bounded`,
    );
  }
  const local = bound.label;
  const routing = routingAlgorithm(s.routing);
  const compose = routing && 'composes' in routing ? routing.composes : undefined;
  if (compose?.kind === 'own') {
    if (!compose.locals.includes(s.policy)) {
      const wanted = listed(compose.locals.map((n) => schedulerAlgorithm(n)?.bound?.label ?? n));
      return none(
        `${compose.label}'s ${compose.theorem.replace(`${compose.label} `, '')} assumes ${wanted} on every worker, not ${local}: gaps are measured, not bounded`,
      );
    }
    return {
      algorithm: s.routing,
      theorem: compose.theorem,
      factor: W,
      shape: bound.shape,
      reason: compose.reason(W),
      broken,
    };
  }
  if (W === 1)
    return {
      algorithm: s.policy,
      theorem: bound.theorem,
      factor: 1,
      shape: bound.shape,
      reason: `${local} on one worker`,
      broken,
    };
  if (compose?.kind === 'spread' && compose.locals.includes(s.policy))
    return {
      algorithm: s.policy,
      theorem: `${local} ${compose.theorem}`,
      factor: W,
      shape: bound.shape,
      reason: compose.reason(W),
      broken,
    };
  const ways = ROUTING_ALGORITHMS.flatMap((d) =>
    'composes' in d && d.composes?.locals.includes(s.policy) ? [d.composes] : [],
  )
    // a routing with its own theorem first, then the ones that spread the local bound
    .sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'own' ? -1 : 1))
    .map((c) => c.phrase);
  return none(
    `${local}'s bound covers one worker; across ${W} workers it needs ${ways.join(' or ')}, not ${s.routing}: gaps are measured, not bounded`,
  );
}

/**
 * A formula as its parts: words and symbols as they are written, numbers as numbers, so that whoever
 * shows it prints the numbers in its own style (the page through its one number format, the run JSON
 * through `groupNumber`), and core decides no number's look.
 */
export type FormulaPart = string | number;
export type Formula = readonly FormulaPart[];

/** A formula as one line of text, each number printed by `num`. */
export function formulaText(formula: Formula, num: (v: number) => string): string {
  return formula.map((p) => (typeof p === 'number' ? num(p) : p)).join('');
}

/** `f\`U = ${u}\`` → ['U = ', u]: the template's text and its values (numbers, text, nested formulas), in order. */
function f(text: TemplateStringsArray, ...values: (FormulaPart | Formula)[]): FormulaPart[] {
  const out: FormulaPart[] = [];
  const push = (p: FormulaPart) => {
    const last = out.length - 1;
    if (typeof p === 'string' && typeof out[last] === 'string') out[last] = `${out[last]}${p}`;
    else if (p !== '') out.push(p);
  };
  text.forEach((t, i) => {
    push(t);
    if (i < values.length) {
      const v = values[i];
      if (typeof v === 'number' || typeof v === 'string') push(v);
      else for (const p of v) push(p);
    }
  });
  return out;
}

/** The bound with its inputs, a short label and the formula with numbers filled in. */
export interface BoundValue {
  bound: number | null;
  /** U as the theorem uses it: w_e·L_input + w_q·M (DLPM, DoubleQ) or max(w_e·L_input, w_q·M) (VTC). */
  U: number | null;
  L_input: number;
  M: number;
  label: string;
  /** The formula with its numbers (or, without a bound, the reason as one part). */
  formula: Formula;
}

/**
 * Whole numbers with comma grouping, others with up to 3 decimals (locale-independent): the plain style
 * of the run JSON's `guarantee.formula` (the page prints the same formula with its own format).
 */
export function groupNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const neg = v < 0;
  const a = Math.abs(v);
  const r = Math.round(a);
  const body =
    Math.abs(a - r) < 1e-9
      ? String(r).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
      : String(Number(a.toFixed(3))).replace(/^(\d+)/, (m) => m.replace(/\B(?=(\d{3})+(?!\d))/g, ','));
  return neg ? `−${body}` : body;
}

export function theoremBound(s: BoundSetup, choice: TheoremChoice, lInput: number): BoundValue {
  const M = s.kvTokens;
  const we = s.weights.input;
  const wq = s.weights.output;
  if (choice.algorithm === null || choice.shape === null)
    return { bound: null, U: null, L_input: lInput, M, label: 'no bound', formula: [choice.reason] };
  const W = choice.factor;
  const wTimes: Formula = W > 1 ? [W, '·'] : [];
  const wSym = W > 1 ? '|W|·' : '';
  if (choice.shape === 'dlpm') {
    const U = we * lInput + wq * M;
    const bound = 2 * W * (U + s.quantum);
    const qw: Formula =
      choice.algorithm === 'doubleq' && s.workerQuantum !== null
        ? f` (Q^w = ${s.workerQuantum} steers routing, not the bound)`
        : [];
    return {
      bound,
      U,
      L_input: lInput,
      M,
      label: `${choice.theorem}: 2·${wSym}(U + Q^u)`,
      formula: f`U = w_e·L_input + w_q·M = ${we}·${lInput} + ${wq}·${M} = ${U}; bound = 2·${wSym}(U + Q^u) = 2·${wTimes}(${U} + ${s.quantum}) = ${bound}${qw}`,
    };
  }
  const U = Math.max(we * lInput, wq * M);
  const bound = 2 * W * U;
  return {
    bound,
    U,
    L_input: lInput,
    M,
    label: `${choice.theorem}: ${W > 1 ? '|W|·' : ''}2·max(w_e·L_input, w_q·M)`,
    formula: f`U = max(w_e·L_input, w_q·M) = max(${we}·${lInput}, ${wq}·${M}) = ${U}; bound = ${wSym}2·U = ${wTimes}2·${U} = ${bound}`,
  };
}

/** What the Guarantees view shows for the broken variant. */
export const BROKEN_WARNING =
  'This is a deliberately broken DLPM (scheduler.dlpm_quantum_per_request): it grants Q^u per ' +
  'request instead of per refill round. Theorem 4.1 needs every backlogged client to be refilled ' +
  'equally often; with a quantum per request, credit follows the number of requests sent, the ' +
  'deficit holds nobody back and the bound no longer holds.';
