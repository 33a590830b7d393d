/**
 * Guided tours: short lessons on the shipped scenarios. Each step names the moment that shows its
 * point: a shipped scenario (with optional `key=value` overrides) and a playhead, either a decision
 * count (the DRR sandbox: one enqueue or one pop per decision, after any preloaded enqueues) or a
 * simulated time in seconds.
 * The text is plain Markdown-ish (**bold**, `code`), written for this playground.
 */

export interface TourMoment {
  /** Shipped scenario id (file name without .yaml). */
  scenario: string;
  sets?: string[];
  /** Playhead as a decision count … */
  decisions?: number;
  /** … or as simulated seconds. */
  time?: number;
}

export interface TourStep {
  title: string;
  text: string;
  at: TourMoment;
}

export interface Tour {
  id: string;
  title: string;
  summary: string;
  steps: TourStep[];
}

const BURST = 'drr-burst';

export const TOURS: Tour[] = [
  {
    id: 'drr',
    title: 'What DRR is',
    summary: 'Deficit round robin over policy classes, one pop at a time.',
    steps: [
      {
        title: 'Two classes, one ring',
        text: 'The router keeps one queue per **policy class** and visits the classes in a fixed ring. Here classes A and B each earn a **quantum** of 10 tokens of credit per visit, and every request costs 3. Each class already holds four requests and both deficits are 0. The DRR ring shows the cursor on A: the next arbitration starts there.',
        at: { scenario: BURST, decisions: 0 },
      },
      {
        title: 'First pop: earn, then pay',
        text: "A has 0 credit, less than its head costs, so it earns its quantum (10), pays 3 for a0 and keeps **7**. Because it still has credit, A becomes the **carry**: the next pop tries A first. **Last arbitration**, under the ring's table, tells this pop visit by visit; outside presentation mode, the Decision log's newest line opens the whole account.",
        at: { scenario: BURST, decisions: 1 },
      },
      {
        title: 'B gets its turn',
        text: 'After a0, a1 and a2, A is down to 1 token, too little for a3. The scan moves on to B, which earns 10, pays for b0 and keeps **7**. A keeps its 1 token for later.',
        at: { scenario: BURST, decisions: 4 },
      },
      {
        title: 'The whole order',
        text: 'All eight requests left in the order a0 a1 a2 b0 b1 b2 a3 b3: three per class per visit, because 10 tokens of credit buy three requests of cost 3. Equal quanta give equal shares of the work.',
        at: { scenario: BURST, decisions: 8 },
      },
    ],
  },
  {
    id: 'per-round',
    title: 'The quantum is per round, not per request',
    summary: 'Credit is granted once per visit; a class spends it over several pops.',
    steps: [
      {
        title: 'Spending saved credit',
        text: 'Pops 2 and 3 of the burst: A pays for a1 and a2 out of the credit it saved on pop 1 (7 → 4 → 1). No new quantum is added: a class earns credit only when the ring comes round to it and its credit is too low.',
        at: { scenario: BURST, decisions: 3 },
      },
      {
        title: 'Quanta 1 and 3',
        text: 'Now two classes with unit-cost requests: `one` earns 1 per round, `three` earns 3. After the first four pops the order is one, three, three, three.',
        at: { scenario: 'drr-exact-ratio', decisions: 4 },
      },
      {
        title: 'The ratio holds',
        text: 'Twenty pops in: 5 requests from `one`, 15 from `three`. Served work follows the ratio of the quanta, **per round**, however many requests each class holds. Try `quantum: 5` for `three` in the Policy tab.',
        at: { scenario: 'drr-exact-ratio', decisions: 20 },
      },
    ],
  },
  {
    id: 'bulk',
    title: 'Bulk credit for big requests',
    summary: 'When a head costs many quanta, DRR grants the missing rounds at once.',
    steps: [
      {
        title: 'Heads bigger than a quantum',
        text: '`standard` (quantum 1000) holds a request costing 7000; `latency` (quantum 2000) holds two costing 9000. One ring round would not let anybody dispatch.',
        at: { scenario: 'drr-bulk-credit', decisions: 0 },
      },
      {
        title: 'Virtual rounds',
        text: "Instead of looping round after round, DRR works out how many rounds the closest class still needs (latency: 4) and grants that many rounds to every class at once: standard 5000, latency 10000. latency dispatches l0 and keeps 1000. **Last arbitration**, under the ring's table, shows the bulk step between the scan and the final scan; outside presentation mode, this pop's line in the Decision log opens the whole account.",
        at: { scenario: 'drr-bulk-credit', decisions: 1 },
      },
      {
        title: 'Weights survive',
        text: 'The next pop finishes the job for `standard` (7000 reached) and s0 leaves. Each class scaled the same number of rounds by its own quantum, so the 1 : 2 weighting is kept.',
        at: { scenario: 'drr-bulk-credit', decisions: 2 },
      },
    ],
  },
  {
    id: 'blocked',
    title: 'Head-of-line blocking',
    summary: 'A class whose head cannot dispatch keeps its credit but earns none.',
    steps: [
      {
        title: 'fast takes a turn',
        text: '`fast` earns 4, dispatches f0 (cost 2) and keeps 2 as the carry.',
        at: { scenario: 'drr-blocked-class', decisions: 1 },
      },
      {
        title: 'fast is blocked',
        text: "For three pops fast's head is pinned to a busy worker. fast keeps its 2 tokens but earns nothing, and `slow` takes s0, s1 and s2, earning credit only when it needs it.",
        at: { scenario: 'drr-blocked-class', decisions: 4 },
      },
      {
        title: 'Everything blocked',
        text: 'Three pops with both heads blocked: nothing dispatches and no deficit grows. A blocked ring grants no credit, however often the router asks.',
        at: { scenario: 'drr-blocked-class', decisions: 7 },
      },
      {
        title: 'Unblocked',
        text: 'fast is dispatchable again: its saved 2 tokens pay for f1 straight away, with no new quantum.',
        at: { scenario: 'drr-blocked-class', decisions: 8 },
      },
    ],
  },
  {
    id: 'lpm-dlpm',
    title: 'Why LPM starves a client and DLPM does not',
    summary: 'Longest prefix match versus its deficit-bounded variant, on one worker.',
    steps: [
      {
        title: 'LPM: cache first',
        text: "The paper's LLM-as-judge workload on one GPU, scheduled by **LPM**: the request with the longest cached prefix goes first. eve sends about six times as many requests as each of the others (493 against 75–87 in the minute), and hers share prefixes with each other, so they keep winning. The KV cache is **scaled down to 60,000 tokens** for this lesson (the scenario's own A100 holds about 467,000, where nothing queues long enough for the order to matter). Look at **Client service**: while the others wait, eve's line pulls away from theirs.",
        at: {
          scenario: 'paper-judge-s1-1w',
          sets: ['scheduler.policy=lpm', 'cluster.kv_cache_tokens=60000'],
          time: 30,
        },
      },
      {
        title: 'DLPM: cache first, within a budget',
        text: "Same workload, **DLPM**: each client has a deficit that grows by Q^u per refill and shrinks with the service it gets. Prefix order still decides among clients with credit, but a client that has used its share waits. In **Client service** eve no longer pulls away while the others wait: at this moment (t = 30 s) the largest gap between two backlogged clients is **25,173** service units (cat–eve), where LPM's was 34,396 at the same moment. Over the whole run LPM's reaches 315,100 while DLPM's stays 25,173, and the well-behaved clients' first tokens come sooner (median time to first token over the whole run: ann 15.6 s → 8.2 s; eve 29.8 s → 52.0 s). Both runs serve all 730 requests: DLPM changes who waits, not who is served.",
        at: { scenario: 'paper-judge-s1-1w', sets: ['cluster.kv_cache_tokens=60000'], time: 30 },
      },
      {
        title: 'The knob',
        text: 'Q^u (`scheduler.quantum`) trades one for the other: a larger quantum lets a client run longer on its cached prefix (more reuse) before the others catch up (a looser bound on how far apart two backlogged clients can get). To see that frontier for this workload, open **Sweep** and sweep Q^u over a range; its preset “Paper Fig. 1” shows the same trade-off on the paper’s own Fig. 1 workload, Tree-of-Thoughts S2 with a small KV cache.',
        at: { scenario: 'paper-judge-s1-1w', sets: ['cluster.kv_cache_tokens=60000'], time: 60 },
      },
    ],
  },
  {
    id: 'doubleq',
    title: "DoubleQ's stickiness",
    summary: 'Per-worker deficits keep a client on the worker that holds its prefix.',
    steps: [
      {
        title: 'Four workers, Tree-of-Thoughts',
        text: 'Four GPUs behind a **DoubleQ** router. For each arriving request it finds the workers holding the longest matching prefix, then keeps only those where the client still has credit (its per-worker deficit, topped up by Q^w).',
        at: { scenario: 'paper-tot-s1-4w', time: 4 },
      },
      {
        title: 'Sticky, but not forever',
        text: "A client's follow-up requests land on the same worker while its credit there lasts, so the prefix cache keeps hitting (see **Workers**). When the credit is used up the request can move, which spreads a heavy client over the cluster. Select a dispatch in the Decision log: the account lists the matching workers, the ones with credit and the refills.",
        at: { scenario: 'paper-tot-s1-4w', time: 12 },
      },
    ],
  },
];
