/** Workloads for the live-order tests (LPM, DLPM): deterministic from a seed. */
export interface Case {
  seed: number;
  n: number;
  block: 1 | 4 | 16;
  kvTokens: number;
  maxRunning: number;
  batch: number;
  admission: 'sglang' | 'optimistic';
  fallback: number;
  collide: boolean;
  /** Clients (round robin over the requests); 1 when absent. */
  clients?: number;
}

/** Deterministic workload from a seed: [arrival time, prompt, output, forced head key or -2]. */
export interface Job {
  t: number;
  tokens: Int32Array;
  out: number;
  head: number;
  client: number;
}

export function workload(c: Case): Job[] {
  let x = c.seed >>> 0 || 1;
  const rnd = (k: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % k;
  };
  const families = 1 + rnd(6);
  const systems = Array.from({ length: families }, (_, f) =>
    Int32Array.from({ length: rnd(4) === 0 ? 0 : 8 + rnd(200) }, (_, i) => 100_000 * (f + 1) + i),
  );
  const out: Job[] = [];
  for (let i = 0; i < c.n; i++) {
    const t = rnd(3) === 0 ? 0 : rnd(4000) / 1000;
    let tokens: Int32Array;
    if (out.length > 0 && rnd(3) === 0) {
      // a follow-up: an earlier prompt plus a new turn
      const prev = out[rnd(out.length)].tokens;
      const turn = Int32Array.from({ length: 1 + rnd(80) }, () => rnd(5));
      tokens = new Int32Array(prev.length + turn.length);
      tokens.set(prev);
      tokens.set(turn, prev.length);
    } else {
      const sys = systems[rnd(families)];
      const user = Int32Array.from({ length: 1 + rnd(300) }, () =>
        rnd(2) === 0 ? rnd(4) : 1000 + rnd(50_000),
      );
      tokens = new Int32Array(sys.length + user.length);
      tokens.set(sys);
      tokens.set(user, sys.length);
    }
    if (tokens.length > 1500) tokens = tokens.subarray(0, 1500);
    out.push({
      t,
      tokens,
      out: 1 + rnd(40),
      head: c.collide && rnd(4) === 0 ? 7 + rnd(2) : -2,
      client: rnd(c.clients ?? 1),
    });
  }
  out.sort((a, b) => a.t - b.t);
  return out;
}
