/**
 * Runs a sweep in parallel Web Workers (min(cores − 1, 4), at least one): each worker takes the next
 * point; Cancel terminates the workers at once. Results go into the features store as they arrive.
 */
import { type SweepApi, startSweepWorker, type WorkerHandle } from '../../worker/client';
import { runSweep, type SweepPointInput } from '../../worker/sweep-runner';
import type { TraceTable } from '../../core/trace';
import { type SweepPoint, type SweepRun, useFeatures } from './store';

export function sweepConcurrency(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores - 1, 4));
}

let token = 0;
let live: WorkerHandle<SweepApi>[] = [];

function update(id: number, f: (s: SweepRun) => SweepRun): void {
  if (id !== token) return;
  const s = useFeatures.getState().sweep;
  if (s) useFeatures.setState({ sweep: f(s) });
}

/**
 * Start a sweep (cancelling any running one). `traces`: the page worker's tables of the dropped
 * traces the scenario replays (each sweep worker is handed a copy; the files are not read again).
 */
export async function startSweep(
  base: Omit<SweepRun, 'status' | 'done' | 'total' | 'points'>,
  points: Omit<SweepPoint, 'result' | 'error'>[],
  traces: readonly TraceTable[] = [],
): Promise<void> {
  cancelSweep();
  const id = ++token;
  useFeatures.setState({
    sweep: {
      ...base,
      status: 'running',
      done: 0,
      total: points.length,
      points: points.map((p) => ({ ...p, result: null, error: null })),
    },
  });
  const n = Math.min(sweepConcurrency(), points.length);
  const pool = Array.from({ length: n }, () => startSweepWorker());
  live = pool;
  await Promise.all(
    pool.map(async (w) => {
      for (const t of traces) await w.api.adoptTrace(t);
    }),
  );
  if (id !== token) return;
  const free = [...pool];
  const inputs: SweepPointInput[] = points.map((p) => ({
    scenario: base.scenario,
    ...(base.policy !== undefined ? { policy: base.policy } : {}),
    sets: p.sets,
  }));
  await runSweep(
    inputs,
    async (input) => {
      const w = free.pop();
      if (!w) throw new Error('no free sweep worker');
      try {
        return await w.api.runPoint(input);
      } finally {
        free.push(w);
      }
    },
    {
      concurrency: n,
      cancelled: () => id !== token,
      onPoint: (i, outcome) =>
        update(id, (s) => ({
          ...s,
          done: s.done + 1,
          points: s.points.map((p, j) =>
            j === i
              ? {
                  ...p,
                  result: outcome.ok ? outcome.result : null,
                  error: outcome.ok ? null : outcome.message,
                }
              : p,
          ),
        })),
    },
  );
  update(id, (s) => ({ ...s, status: 'done' }));
  if (id === token) stopWorkers();
}

function stopWorkers(): void {
  for (const w of live) w.terminate();
  live = [];
}

export function cancelSweep(): void {
  const running = useFeatures.getState().sweep?.status === 'running';
  token++;
  stopWorkers();
  if (running) {
    const s = useFeatures.getState().sweep;
    if (s) useFeatures.setState({ sweep: { ...s, status: 'cancelled' } });
  }
}
