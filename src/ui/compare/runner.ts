/**
 * Compare mode's engine: run B in a second simulation worker, loaded with A's scenario changed by the
 * settings (same seed, same workload), and kept at A's simulated time. Every frame of A that carries
 * a snapshot asks B to follow (coalesced: while B works, only the newest target is kept), so both
 * show the same moment on A's one timeline. Each run plays to its own end: a B that ends first stays
 * at its end while A goes on, and once A is over, Play and Step move B on to its end (the driver's
 * follower) while A stays at its end. A new load of A rebuilds B from the same settings. A share
 * link made after B played on carries B's own playhead, and opening it replays B to that decision.
 */
import { heldTraceFile, traceFilesOf } from '../features/trace-file-store';
import { formatProblems } from '../../format/yaml';
import { formatProblem, type Override, overrideOf } from '../../scenario';
import { useUi } from '../../state/store';
import { startSimulation, type WorkerApi } from '../../worker/client';
import { unpackFrame } from '../../worker/frame';
import type { SessionSnapshot } from '../../worker/session';
import { type Driver, type LoadedTexts, SNAPSHOT_EVERY_MS } from '../driver';
import { contributeToShare, decodeShare, isShareFragment, shareContributionChanged } from '../share/codec';
import { BAhead } from './ahead';
import { addSample, figuresOf, sampleOf } from './diff';
import { type CompareSettings, describeB, resolveRunB, runLabel } from './settings';
import { bGoesOn, useCompare } from './store';
import { setPresenting, usePresent } from '../present/store';
import { PRESENT_IN_COMPARE } from '../present/toggle';

/** Longest slice of B's replay to a link's playhead (ms of the worker's time), between progress updates. */
const REPLAY_SLICE_MS = 40;

interface Target {
  t: number;
  snapshotA: SessionSnapshot | null;
  /** A is over at `t`: B goes to `t` but never back from a later moment it has played on to. */
  atLeast: boolean;
}

export class CompareRunner {
  private worker: { api: WorkerApi; terminate(): void } | null = null;
  /** Bumped on every enter/exit: work of an older generation is dropped. */
  private generation = 0;
  private target: Target | null = null;
  /** Decisions of B asked for after A ended (Step's, and Play's wall-bounded slice). */
  private readonly ahead = new BAhead();
  private pumping = false;
  private idle: (() => void)[] = [];
  /** Stop asked for B's replay to a link's playhead (it stays where it got to). */
  private stopReplay = false;

  constructor(
    private readonly driver: Driver,
    private readonly start: () => { api: WorkerApi; terminate(): void } = startSimulation,
  ) {
    driver.onFrame((frame) => {
      if (!useCompare.getState().active || frame.snapshot === null) return;
      this.follow({ t: frame.sim_time_s, snapshotA: frame.snapshot, atLeast: frame.done });
    });
    driver.setFollower({
      pending: () => bGoesOn(useCompare.getState()),
      advance: (decisions, maxWallMs) => this.advanceB(decisions, maxWallMs),
    });
    driver.onLoad((_texts, opts) => void this.afterLoad(opts.fromLink === true));
    // While playing, frames without a snapshot do not move B; on pause both settle on A's exact time,
    // and a slice of Play that B has not started yet is dropped (B stops where its worker is now).
    useUi.subscribe((s, prev) => {
      if (prev.playing && !s.playing && useCompare.getState().active) {
        this.ahead.dropSlice();
        void driver.refresh();
      }
    });
    contributeToShare(
      () => {
        const s = useCompare.getState();
        if (!s.active || !s.settings) return {};
        // B's own place once it has played on past A's end (else it is at A's time, as it follows A)
        return { compare: s.playedOn ? { ...s.settings, playhead: s.decisionsB } : s.settings };
      },
      { busy: () => useCompare.getState().active && useCompare.getState().busy },
    );
    useCompare.subscribe((s, p) => {
      if (
        s.active !== p.active ||
        s.settings !== p.settings ||
        s.playedOn !== p.playedOn ||
        (s.playedOn && s.decisionsB !== p.decisionsB) ||
        s.busy !== p.busy
      )
        shareContributionChanged();
    });
  }

  /**
   * Start comparing (or change run B); rejects with a readable message when B does not load.
   * `playheadB` (a share link's): once B is at A's moment and A is over, B replays on to that decision.
   */
  async enter(settings: CompareSettings, playheadB?: number): Promise<void> {
    if (!this.driver.loadedTexts()) await this.driver.ready;
    const a = this.driver.loadedTexts() as LoadedTexts;
    const b = resolveRunB(a, settings);
    if (!b.ok) throw new Error(b.message);
    const gen = ++this.generation;
    this.target = null;
    this.ahead.clear();
    this.pumping = false;
    useCompare.setState({ busy: true, error: null });
    if (!this.worker) this.worker = this.start();
    let message: string | null = null;
    try {
      // a dropped trace lives in the page's worker: B's worker reads the same files (still local)
      for (const name of traceFilesOf(b.scenario)) {
        const file = heldTraceFile(name);
        if (file !== null) await this.worker.api.loadTrace(file, name);
      }
      const res = await this.worker.api.load(b.scenario, b.policy);
      if (!res.ok) {
        // a problem in a value the overrides set names the override, not a line of B's hidden text
        const sets = settings.scenario === undefined ? (settings.sets ?? []) : [];
        const overrides: Override[] = sets.map((set) => overrideOf(a.scenario, set));
        message =
          res.source === 'policy'
            ? formatProblems(res.problems, 'policy B')
            : res.problems.map((p) => formatProblem(p, 'scenario B', overrides, 'override')).join('\n');
      }
    } catch (err) {
      message = `run B cannot start: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (gen !== this.generation) return;
    if (message !== null) {
      useCompare.setState({ busy: false });
      // Not comparing yet: no idle worker left behind.
      if (!useCompare.getState().active) {
        this.worker?.terminate();
        this.worker = null;
      }
      throw new Error(message);
    }
    const labelA = runLabel(a.scenario);
    const named = describeB(labelA, b.scenario, settings);
    if (useUi.getState().message?.startsWith('Compare mode ended')) useUi.setState({ message: null });
    // A link with ?present=1 that opens in Compare: presentation mode shows one run, so it is turned
    // off (and out of the address) with the reason, rather than kept to spring on once Compare is left
    if (usePresent.getState().presenting) {
      setPresenting(false);
      useUi.getState().setMessage(PRESENT_IN_COMPARE);
    }
    useCompare.setState({
      active: true,
      settings,
      labelA,
      labelB: named.label,
      titleB: named.title,
      snapshotB: null,
      pairedA: null,
      simTimeB: 0,
      decisionsB: 0,
      doneB: false,
      playedOn: false,
      seekB: null,
      catchUp: null,
      history: [],
    });
    const ui = useUi.getState();
    this.follow({ t: ui.simTime, snapshotA: ui.snapshot, atLeast: ui.done });
    await this.settled();
    if (playheadB !== undefined && gen === this.generation) await this.replayB(playheadB, gen);
  }

  /**
   * Run A is over: B goes on by itself to decision `target`, in slices (as Play would take them, so
   * the state is the one the link was made from), showing its progress; then its full snapshot.
   * Stops early when B ends, a newer enter/exit comes, or A is not over.
   */
  private async replayB(target: number, gen: number): Promise<void> {
    const going = () => {
      const s = useCompare.getState();
      return gen === this.generation && useUi.getState().done && bGoesOn(s) && s.decisionsB < target;
    };
    if (!going()) return;
    const since = performance.now();
    this.stopReplay = false;
    try {
      while (going() && !this.stopReplay) {
        useCompare.setState({ seekB: { at: useCompare.getState().decisionsB, target, since } });
        await this.advanceB(target - useCompare.getState().decisionsB, REPLAY_SLICE_MS);
      }
    } finally {
      if (gen === this.generation) useCompare.setState({ seekB: null });
    }
    if (gen !== this.generation) return;
    // the slices' frames carry a snapshot only now and then: settle on the full one
    const ui = useUi.getState();
    this.follow({ t: ui.simTime, snapshotA: ui.snapshot, atLeast: true });
    await this.settled();
  }

  /** Stop B's replay to a link's playhead where it has got to (a state B passed through, as Step would). */
  stopSeekB(): void {
    if (useCompare.getState().seekB) this.stopReplay = true;
  }

  /** Leave compare mode and stop run B's worker. */
  exit(): void {
    this.generation++;
    this.target = null;
    this.ahead.clear();
    this.pumping = false;
    this.worker?.terminate();
    this.worker = null;
    useCompare.setState({
      active: false,
      busy: false,
      snapshotB: null,
      pairedA: null,
      playedOn: false,
      seekB: null,
      catchUp: null,
      history: [],
      error: null,
    });
    this.wake();
  }

  /** Resolves once B has caught up with the newest target. */
  settled(): Promise<void> {
    if (!this.pumping && this.target === null && this.ahead.empty) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async snapshotB(): Promise<SessionSnapshot | null> {
    await this.settled();
    return this.worker && useCompare.getState().active ? this.worker.api.snapshot() : null;
  }

  private wake(): void {
    const waiting = this.idle;
    this.idle = [];
    for (const fn of waiting) fn();
  }

  private follow(target: Target): void {
    this.target = target;
    if (!this.pumping) void this.pump(this.generation);
  }

  /**
   * Run A is over and B is not: B takes up to `decisions` more, after any sync still queued —
   * exactly that many without `maxWallMs` (Step), else within about `maxWallMs` (one frame of Play).
   * The two are kept apart, so a Step never lifts a slice's wall limit. Resolves once done.
   */
  private advanceB(decisions: number, maxWallMs?: number): Promise<void> {
    if (maxWallMs === undefined) this.ahead.addSteps(decisions);
    else this.ahead.addSlice(decisions, maxWallMs);
    if (!this.pumping) void this.pump(this.generation);
    return this.settled();
  }

  private async pump(gen: number): Promise<void> {
    this.pumping = true;
    useCompare.setState({ busy: true });
    try {
      while ((this.target !== null || !this.ahead.empty) && gen === this.generation && this.worker) {
        const api = this.worker.api;
        let t: number;
        let snapshotA: SessionSnapshot | null;
        let buf: ArrayBuffer;
        // B's position after this frame: its own (it took decisions after A's end) or A's clock
        let playedOn = useCompare.getState().playedOn;
        if (this.target !== null) {
          ({ t, snapshotA } = this.target);
          // A at its end: B, already played on past it, stays where it is (only its snapshot is fetched)
          const stay = this.target.atLeast && (playedOn || useCompare.getState().simTimeB > t);
          this.target = null;
          if (!stay) useCompare.setState({ catchUp: { to: t, since: performance.now() } });
          try {
            buf = await (stay ? api.frame() : api.syncTo(t));
          } finally {
            if (!stay && gen === this.generation) useCompare.setState({ catchUp: null });
          }
          if (!stay) playedOn = false;
        } else {
          const budget = this.ahead.take(SNAPSHOT_EVERY_MS);
          const s = useCompare.getState();
          if (budget === null || !bGoesOn(s)) {
            this.ahead.clear();
            continue;
          }
          // A stays at its end (its last snapshot); only B moves
          snapshotA = s.pairedA;
          t = s.simTimeB;
          playedOn = true;
          buf = await api.advance(budget);
        }
        const frame = unpackFrame(buf);
        if (gen !== this.generation) return;
        const s = useCompare.getState();
        const snapshotB = frame.snapshot ?? s.snapshotB;
        // the sample's moment: the later clock (B's end stays put while A goes on, and the other way round)
        const at = Math.max(t, frame.sim_time_s);
        useCompare.setState({
          snapshotB,
          pairedA: snapshotA,
          simTimeB: frame.sim_time_s,
          decisionsB: frame.decision_count,
          doneB: frame.done,
          playedOn,
          history: addSample(s.history, sampleOf(at, figuresOf(snapshotA), figuresOf(snapshotB))),
        });
      }
    } catch (err) {
      if (gen === this.generation)
        useCompare.setState({ error: `Run B stopped: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      if (gen === this.generation) {
        this.pumping = false;
        useCompare.setState({ busy: false });
        this.wake();
      }
    }
  }

  /** A opened something new: a link restores (or ends) its comparison; other loads rebuild B. */
  private async afterLoad(fromLink: boolean): Promise<void> {
    let settings = useCompare.getState().active ? useCompare.getState().settings : null;
    let playheadB: number | undefined;
    if (fromLink && isShareFragment(location.hash)) {
      const link = await decodeShare(location.hash);
      const shared = link.ok ? link.state.compare : undefined;
      settings = null;
      if (shared) {
        const { playhead, ...rest } = shared;
        settings = rest;
        playheadB = playhead;
      }
    }
    if (!settings) {
      if (useCompare.getState().active) this.exit();
      return;
    }
    try {
      await this.enter(settings, playheadB);
    } catch (err) {
      this.exit();
      useUi.setState({
        message: `Compare mode ended: run B does not load with the new scenario (${err instanceof Error ? err.message : String(err)}).`,
      });
    }
  }
}

const runners = new WeakMap<Driver, CompareRunner>();

/** The one runner of a driver (created on first use, which also installs its listeners). */
export function compareRunner(driver: Driver): CompareRunner {
  let r = runners.get(driver);
  if (!r) {
    r = new CompareRunner(driver);
    runners.set(driver, r);
  }
  return r;
}
