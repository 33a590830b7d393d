import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { CHIPS_PER_CLASS, ClassQueues } from '../../../src/ui/views/ClassQueues';
import { ClientService } from '../../../src/ui/views/ClientService';
import { Figures } from '../../../src/ui/views/Figures';
import { buildRadixTree } from '../../../src/ui/views/RadixTree';
import { DENSE_POINTS } from '../../../src/ui/views/TimeChart';
import type { Highlight, ViewProps } from '../../../src/ui/views/types';
import { IDS_SHOWN, Workers } from '../../../src/ui/views/Workers';
import type { SessionSnapshot } from '../../../src/worker/session';
import { burstScript, clusterSnapshot, enqueue, pretty, sessionSnapshot } from './fixtures';

type View = (p: ViewProps) => unknown;
const render = (view: View, snapshot: SessionSnapshot | null, highlight?: Highlight) =>
  renderToStaticMarkup(h(view as (p: ViewProps) => null, { snapshot, highlight })).replaceAll('\u202f', ' ');

describe('ClassQueues', () => {
  test('burst after 3 pops: each class in heap order, head first, with cost and arrival', async () => {
    const html = render(ClassQueues, sessionSnapshot(burstScript(), 11));
    const ids = [...html.matchAll(/data-request="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['a3', 'b0', 'b1', 'b2', 'b3']);
    expect(html).toContain('5 waiting');
    expect(html).toMatch(
      /class="cq-chip head"[^>]*title="a3 in A, position 1 \(head\), cost 3 uncached tokens/,
    );
    await expect(pretty(html)).toMatchFileSnapshot('__snapshots__/class-queues-burst-after-3-pops.html');
  });

  test('the selected request is outlined and marked current', () => {
    const html = render(ClassQueues, sessionSnapshot(burstScript(), 11), { request: 'b2' });
    expect(html).toMatch(/<li data-request="b2" aria-current="true"><span class="cq-chip selected"/);
    expect(html).toContain('class="cq-class selected" data-class="B"');
  });

  test('age = now − arrival when the snapshot has a time', () => {
    // (a cluster's clock: the sandbox has none, and shows arrival numbers instead of ages)
    const snap = { ...clusterSnapshot(), sim_time_s: 10, drr: sessionSnapshot(burstScript(), 11).drr };
    const html = render(ClassQueues, snap);
    // b0 arrived at t = 4 s (its op index): it has waited 6 s.
    expect(html).toContain('waiting 6.00 s');
    expect(html).toContain('age = now − arrival');
    const sandbox = render(ClassQueues, { ...sessionSnapshot(burstScript(), 11), sim_time_s: 10 });
    expect(sandbox).not.toContain('waiting 6.00 s');
    expect(sandbox).toContain('arrival = the script&#x27;s arrival, else its op number');
    expect(sandbox).not.toMatch(/ · t \d/);
  });

  test('long queues are cut with a count of the rest', () => {
    const ops = Array.from({ length: CHIPS_PER_CLASS + 5 }, (_, i) => enqueue(`a${i}`, 'A', 1, i));
    const html = render(ClassQueues, sessionSnapshot({ ...burstScript(), ops }, ops.length));
    expect([...html.matchAll(/data-request=/g)]).toHaveLength(CHIPS_PER_CLASS);
    expect(html).toContain('+ 5 more');
  });

  test('a cluster snapshot’s chips name their client', () => {
    const html = render(ClassQueues, clusterSnapshot());
    expect(html).toContain('2 waiting');
    expect(html).toMatch(/title="alice#3\.0 in standard, position 1 \(head\), client alice, cost 7/);
  });

  test('empty state without policy-class queues', () => {
    const { drr: _drr, ...noQueues } = clusterSnapshot();
    expect(render(ClassQueues, noQueues)).toContain('No policy-class queues in this scenario');
  });
});

describe('ClientService', () => {
  test('deficit bars per client (diverging at zero), legend and curves with units', async () => {
    const html = render(ClientService, clusterSnapshot());
    expect(html).toContain('aria-label="Client service"');
    expect(html).toMatch(/data-client="alice" data-value="150"/);
    expect(html).toMatch(/data-client="bob" data-value="-50"/);
    expect(html).toContain('DLPM deficit per client');
    expect(html).toContain('service units');
    expect(html).toContain('simulated time (s)');
    // Cumulative by default, both clients drawn, no band without a bound in the snapshot.
    expect(html).toContain('aria-pressed="true">cumulative');
    expect([...html.matchAll(/class="series-line" data-series="(\w+)"/g)].map((m) => m[1])).toEqual([
      'alice',
      'bob',
    ]);
    expect(html).not.toContain('class="band"');
    expect(html).toContain('spread so far 400');
    await expect(pretty(html)).toMatchFileSnapshot('__snapshots__/client-service-cluster.html');
  });

  test('the fairness bound is a gauge against the gap it bounds (no band under the curves)', () => {
    const base = clusterSnapshot();
    const worst = { a: 'alice', b: 'bob', max_gap: 150, max_gap_at: 3, current_gap: null, violated_at: null };
    const html = render(ClientService, {
      ...base,
      fairness_bound: { value: 300, label: 'DLPM bound 2·(U + Q^u)' },
      guarantee: {
        ...base.guarantee,
        algorithm: 'dlpm',
        bound: 300,
        bound_label: 'DLPM bound 2·(U + Q^u)',
        pairs: [worst],
        worst,
      },
    });
    expect(html).not.toContain('class="band"');
    // the bound's value in the words, which bound in their tooltip (the text spans the gauge's width)
    expect(html).toMatch(
      /title="DLPM bound 2·\(U \+ Q\^u\)">largest gap while both clients were backlogged = 150 \(alice–bob\) = 50 % of the bound 300</,
    );
    // the curves' spread (400, over the bound) is given apart, not as a share of the bound
    expect(html).toMatch(
      /Totals so far \(t = [\d.]+ s\): leader − last client = 400\. No theorem bounds this spread/,
    );
  });

  test('VTC counters and DoubleQ per-worker deficits', () => {
    const snap = clusterSnapshot();
    const clients = snap.clients;
    for (const c of Object.values(clients)) delete c.deficit;
    clients.alice.counter = 1234;
    clients.bob.counter = 1000;
    expect(render(ClientService, snap)).toContain('VTC counter per client');
    clients.alice.deficit_per_worker = [10, -20];
    clients.bob.deficit_per_worker = [5, 0];
    const html = render(ClientService, snap);
    expect(html).toContain('DoubleQ deficit q(i, w)');
    expect(html).toMatch(/data-worker="1" data-value="-20"/);
  });

  test('many samples go to a canvas with an aria-label', () => {
    const snap = clusterSnapshot();
    const n = DENSE_POINTS;
    const t = Array.from({ length: n }, (_, i) => i / 10);
    snap.series = {
      t,
      rows: { 'service:alice': t.map((x) => x * 200), 'service:bob': t.map((x) => x * 100) },
      dt: 0.1,
    };
    const html = render(ClientService, snap);
    expect(html).toMatch(/<canvas[^>]*role="img" aria-label="Cumulative service per client over 240 s/);
    expect(html).not.toContain('class="series-line"');
  });

  test('empty state without clients', () => {
    expect(render(ClientService, sessionSnapshot(burstScript(), 3))).toContain('No clients yet');
  });
});

describe('Workers', () => {
  test('batch, queue, KV blocks, hit rate, step time and the radix tree', async () => {
    const html = render(Workers, clusterSnapshot());
    expect(html).toContain('120 / 400 (30 %)');
    expect(html).toContain('data-kv-used="120" data-kv-total="400"');
    expect(html).toContain('38 %');
    expect(html).toContain('step 23.5 ms');
    expect(html).toContain('radix tree · 3 nodes · 960 tokens');
    expect([...html.matchAll(/<g data-node="(\d+)"/g)].map((m) => m[1])).toEqual(['0', '1', '2', '3']);
    expect(html).toContain('The prefix cache is empty.');
    await expect(pretty(html)).toMatchFileSnapshot('__snapshots__/workers-cluster.html');
  });

  test('a highlighted worker and radix node: card outlined, tree opened, path drawn', () => {
    const html = render(Workers, clusterSnapshot(), { worker: 0, node: 2 });
    expect(html).toContain('class="wk-card selected" data-worker="0"');
    expect(html).toContain('<details open="">');
    // Path from node 2 to the root: nodes 2, 1 and the root are outlined, node 3 is not.
    const onPath = [...html.matchAll(/<g data-node="(\d+)"><rect class="[^"]*on-path/g)].map((m) => m[1]);
    expect(onPath).toEqual(['0', '1', '2']);
  });

  test('request chips take their client colour and shape, from the snapshot’s client of each request', () => {
    const html = render(Workers, clusterSnapshot());
    expect(html).toContain(
      'style="--chip-color:var(--c1)" title="bob#0.0 (client bob)" data-request="bob#0.0"><span class="wk-shape" aria-hidden="true">▲</span>',
    );
    // the client comes from the snapshot, not from the id: a trace request's id names no client
    const snap = clusterSnapshot();
    snap.workers[0].running = ['req-17', 'req-18'];
    snap.workers[0].running_clients = [1, 0];
    const traced = render(Workers, snap);
    expect(traced).toContain(
      'style="--chip-color:var(--c1)" title="req-17 (client bob)" data-request="req-17"><span class="wk-shape" aria-hidden="true">▲</span>',
    );
    expect(traced).toContain(
      'style="--chip-color:var(--c0)" title="req-18 (client alice)" data-request="req-18"><span class="wk-shape" aria-hidden="true">●</span>',
    );
    // the legend names each client's colour and shape (one meaning per colour in this view)
    expect(html).toMatch(/client \(colour and shape\):.*●<\/span> alice.*▲<\/span> bob/);
  });

  test('a busy worker shows the first chips and "+ N more", not one chip per request', () => {
    const snap = clusterSnapshot();
    const ids = Array.from({ length: 40 }, (_, i) => `alice#${i}.0`);
    snap.workers[0].running = ids;
    snap.workers[0].running_clients = ids.map(() => 0);
    const html = render(Workers, snap);
    const list = html.match(/<ul class="wk-ids" aria-label="running on worker 0">.*?<\/ul>/)?.[0] ?? '';
    expect([...list.matchAll(/<li [^>]*data-request=/g)].length).toBe(IDS_SHOWN);
    // the count is a button that lists every request the snapshot holds (a click; see e2e worker-lists)
    expect(list).toMatch(
      new RegExp(
        `<li class="more"><button type="button" class="link" aria-expanded="false"[^>]*>\\+ ${40 - IDS_SHOWN} more</button></li>`,
      ),
    );
  });

  test('a step of a second or more is in seconds, on the card and in its label (tryout L1)', () => {
    const snap = clusterSnapshot();
    snap.workers[0].last_step_ms = 15_600;
    const html = render(Workers, snap);
    expect(html).toContain('</button></span> 15.6 s</span></h3>');
    expect(html).toContain('last step 15.6 s');
    expect(html).not.toMatch(/k ms/);
  });

  test('radix tree: orphans hang off the root, cycles are cut', () => {
    const t = buildRadixTree([
      { id: 5, parent: 9, tokens: 16, lock: 0 },
      { id: 6, parent: 7, tokens: 16, lock: 0 },
      { id: 7, parent: 6, tokens: 16, lock: 0 },
    ]);
    const ids: number[] = [];
    const walk = (d: typeof t) => {
      ids.push(d.id);
      d.children.forEach(walk);
    };
    walk(t);
    expect(ids.sort()).toEqual([0, 5]);
  });

  test('empty state in the DRR sandbox', () => {
    expect(render(Workers, sessionSnapshot(burstScript(), 3))).toContain('No workers in this snapshot');
  });
});

describe('Figures', () => {
  test('throughput, Jain over time and the latency table', async () => {
    const html = render(Figures, clusterSnapshot());
    expect(html).toContain('Service rate over 4 s in service units/s; latest 300');
    // alice serves at 200/s and bob at 100/s: Jain = 300² / (2 · (200² + 100²)) = 0.9.
    expect(html).toContain('latest 0.9 (1 means equal service rates)');
    expect(html).toContain('<span class="fig-v">120 ms</span> / <span class="fig-v">400 ms</span>');
    expect(html).toContain('<span class="fig-v">1.50 s</span> / <span class="fig-v">3.25 s</span>');
    expect(html).toContain('Queued requests per client over 4 s; latest: alice 1, bob 4');
    await expect(pretty(html)).toMatchFileSnapshot('__snapshots__/figures-cluster.html');
  });

  test("the latency table's caption names the units its cells use (tryout T5)", () => {
    const snap = clusterSnapshot();
    // the Mooncake replay's e2e: minutes, which the caption called "in seconds"
    snap.clients.alice.e2e_p50_s = 460;
    snap.clients.alice.e2e_p99_s = 873;
    const html = render(Figures, snap);
    expect(html).toContain('<span class="fig-v">7 min 40 s</span> / <span class="fig-v">14 min 33 s</span>');
    expect(html).toMatch(
      /<caption class="vh">Time to first token \(in milliseconds\) and end-to-end latency \(in (<!-- -->)?minutes and seconds\) per client, p50 and p99<\/caption>/,
    );
    expect(html).not.toContain('in seconds');
  });

  test('empty state without clients or series', () => {
    expect(render(Figures, sessionSnapshot(burstScript(), 3))).toContain('No run figures yet');
  });
});

describe('Workers client mix', () => {
  test('the running batch by client, in client colour order, as text and as a stacked bar', async () => {
    const { clientMix } = await import('../../../src/ui/views/Workers');
    const idx = new Map([
      ['alice', 0],
      ['bob', 1],
    ]);
    const clientOf = new Map([
      ['bob#1.0', 'bob'],
      ['alice#1.0', 'alice'],
      ['bob#2.0', 'bob'],
    ]);
    expect(clientMix(['bob#1.0', 'alice#1.0', 'bob#2.0', 'x'], idx, clientOf)).toEqual([
      { client: 'alice', index: 0, n: 1 },
      { client: 'bob', index: 1, n: 2 },
      { client: '?', index: null, n: 1 },
    ]);
    const html = render(Workers, clusterSnapshot());
    expect(html).toContain('aria-label="running on worker 0 by client: alice 1, bob 1"');
  });
});
