/**
 * The play loop: one `advance` call to the worker per animation frame, with a decision budget from the
 * speed. Only coarse results go into the zustand store.
 */
import { formatProblems } from '../format/yaml';
import { SPEEDS, useUi } from '../state/store';
import type { LoadResult } from '../worker/api';
import type { WorkerApi } from '../worker/client';

export class Driver {
  private raf = 0;
  private last = 0;
  private carry = 0;
  private busy = false;
  private current: { scenario: string; policy?: string } | null = null;

  constructor(private readonly api: WorkerApi) {}

  async load(scenario: string, policy?: string, id = ''): Promise<LoadResult> {
    this.pause();
    const res = await this.api.load(scenario, policy);
    if (!res.ok) {
      useUi.setState({ problems: res.problems });
      return res;
    }
    this.current = { scenario, policy };
    useUi.setState({
      scenarioId: id,
      scenarioName: res.name,
      kind: res.kind,
      problems: [],
      decisions: [],
      done: false,
    });
    await this.refresh();
    return res;
  }

  async loadOrThrow(scenario: string, policy?: string): Promise<void> {
    const res = await this.load(scenario, policy);
    if (!res.ok) throw new Error(formatProblems(res.problems, res.source));
  }

  async reset(): Promise<void> {
    this.pause();
    await this.api.reset();
    useUi.setState({ decisions: [], done: false });
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const snapshot = await this.api.snapshot();
    useUi.setState({ snapshot, simTime: Number(snapshot.sim_time_s ?? 0) });
  }

  async step(n = 1): Promise<void> {
    this.pause();
    await this.applyFrame(await this.api.step(n));
  }

  async runUntil(t: number): Promise<void> {
    this.pause();
    await this.applyFrame(await this.api.runUntil(t));
  }

  private async applyFrame(frame: Awaited<ReturnType<WorkerApi['advance']>>) {
    const { decisions } = useUi.getState();
    const merged = frame.decisions.length ? [...decisions, ...frame.decisions].slice(-200) : decisions;
    useUi.setState({
      snapshot: frame.snapshot,
      simTime: Number(frame.snapshot.sim_time_s ?? 0),
      decisions: merged,
      done: frame.done,
    });
    if (frame.done) this.pause();
  }

  play(): void {
    if (useUi.getState().playing || !this.current) return;
    useUi.getState().setPlaying(true);
    this.last = performance.now();
    this.carry = 0;
    const tick = async (now: number) => {
      if (!useUi.getState().playing) return;
      this.raf = requestAnimationFrame(tick);
      if (this.busy) return;
      const rate = SPEEDS[useUi.getState().speedIndex];
      const dt = Math.min(0.25, (now - this.last) / 1000);
      this.last = now;
      let budget: number;
      if (Number.isFinite(rate)) {
        this.carry += rate * dt;
        budget = Math.floor(this.carry);
        this.carry -= budget;
      } else budget = 1_000_000;
      if (budget <= 0) return;
      this.busy = true;
      try {
        await this.applyFrame(await this.api.advance({ decisions: budget, maxWallMs: 10 }));
      } finally {
        this.busy = false;
      }
    };
    this.raf = requestAnimationFrame(tick);
  }

  pause(): void {
    cancelAnimationFrame(this.raf);
    if (useUi.getState().playing) useUi.getState().setPlaying(false);
  }

  toggle(): void {
    if (useUi.getState().playing) this.pause();
    else this.play();
  }
}
