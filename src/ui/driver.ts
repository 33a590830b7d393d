/**
 * The play loop and every action the controls take. While playing, one `advance` call per animation
 * frame returns one packed frame (decision budget from the speed); seeks run in slices with progress.
 * Only coarse results go into the zustand store.
 */
import { proxy } from 'comlink';
import { formatProblems } from '../format/yaml';
import type { TraceReadOptions } from '../format/trace';
import {
  editsReady,
  editText,
  extractPolicy,
  policyOverride,
  saveEdits,
  savedEdits,
  setTexts,
  type Texts,
  useEdits,
} from '../state/edits';
import { SPEEDS, UI_LOG_LIMIT, useUi } from '../state/store';
import type { Frame } from '../worker/frame';
import { unpackFrame } from '../worker/frame';
import type { LoadResult, SeekTarget } from '../worker/api';
import type { WorkerApi } from '../worker/client';
import { scenarioText } from './scenarios';
import { rememberScenario } from './share/share';

/** While playing, the views' snapshot travels at most this often (light frames in between). */
export const SNAPSHOT_EVERY_MS = 120;

/** Pause in typing after which an edit is applied. */
export const APPLY_DELAY_MS = 400;

export interface LoadOptions {
  /** Shipped scenario id (for persistence and the picker). */
  id?: string;
  /** Seek to this many decisions after loading. */
  playhead?: number;
  /** This load opens the share link in the URL (which then stays there). */
  fromLink?: boolean;
}

/** What a successful load ran (the texts after any policy override was split off). */
export interface LoadedTexts {
  scenario: string;
  policy?: string;
}

export type FrameListener = (frame: Frame) => void;

/**
 * A second run that plays on after this one has ended (compare mode's run B when it lasts longer):
 * while it has decisions left, Play and Step move it instead of the finished run.
 */
export interface Follower {
  /** It has decisions left to take (read when this run is over). */
  pending(): boolean;
  /** Up to `decisions` decisions forward, stopping after about `maxWallMs` when given. */
  advance(decisions: number, maxWallMs?: number): Promise<void>;
}
export type LoadListener = (texts: LoadedTexts, opts: LoadOptions) => void;

export class Driver {
  private raf = 0;
  private frameListeners = new Set<FrameListener>();
  private loadListeners = new Set<LoadListener>();
  private texts: LoadedTexts | null = null;
  private last = 0;
  private carry = 0;
  private busy = false;
  private loaded = false;
  /** Loads under way (a scenario being opened counts from the moment its texts change). */
  private loadDepth = 0;
  private seekToken = 0;
  /** The decision the latest ← asked for, while its seek (numbered `token`) runs. */
  private backGoal: { token: number; decision: number } | null = null;
  /**
   * Counts what the user (or a link, or the hook) asked to run: a scenario being opened that waited
   * for the browser's storage gives way when something newer was asked for in the meantime, so the
   * start-up restore never replaces a run picked, pasted or linked while it waited.
   */
  private intent = 0;
  private playWhenLoaded = false;
  private markReady: () => void = () => {};
  /** Resolves once the first run is loaded: steps asked for before then wait for it. */
  readonly ready = new Promise<void>((resolve) => {
    this.markReady = resolve;
  });
  private applyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The answer of the last load that succeeded (what the run on screen was built from). */
  private lastOk: LoadResult | null = null;
  private follower: Follower | null = null;

  constructor(private readonly api: WorkerApi) {}

  /** Let a second run play on after this one ends (null: none). */
  setFollower(follower: Follower | null): void {
    this.follower = follower;
  }

  /** This run is over and no follower has decisions left: nothing for Play or Step to do. */
  private over(): boolean {
    return useUi.getState().done && !(this.follower?.pending() ?? false);
  }

  /** This run is over but the follower is not: Play and Step move the follower. */
  private followerOn(): boolean {
    return useUi.getState().done && (this.follower?.pending() ?? false);
  }

  /**
   * Read a trace file in the worker (the File is handed over, never uploaded), with progress; a
   * scenario whose `trace.file` is `name` then replays it.
   */
  loadTrace(
    file: Blob,
    name: string,
    onProgress?: (bytes: number, total: number) => void,
    opts: TraceReadOptions = {},
  ) {
    return this.api.loadTrace(file, name, opts, onProgress ? proxy(onProgress) : undefined);
  }

  /** The parsed table of the dropped trace `name`, when the worker holds it (for sweep and export workers). */
  droppedTrace(name: string) {
    return this.api.droppedTrace(name);
  }

  /** Stop the trace read in progress. */
  cancelTrace(): Promise<void> {
    return this.api.cancelTrace();
  }

  /** The texts of the run now loaded (null before the first load). */
  /**
   * True while a load is under way: the editors (and the scenario id) may already hold the new texts
   * while the views still show the old run, so nothing should describe that mixed state (the live
   * address waits for the load to finish).
   */
  get loading(): boolean {
    return this.loadDepth > 0;
  }

  loadedTexts(): LoadedTexts | null {
    return this.texts;
  }

  /** Called with every frame applied (after the store has it); returns the unsubscribe. */
  onFrame(fn: FrameListener): () => void {
    this.frameListeners.add(fn);
    return () => this.frameListeners.delete(fn);
  }

  /** Called after each successful load (and its playhead seek); returns the unsubscribe. */
  onLoad(fn: LoadListener): () => void {
    this.loadListeners.add(fn);
    return () => this.loadListeners.delete(fn);
  }

  /** Load texts into the worker and restart. Keeps the previous run when they are invalid. */
  async load(scenario: string, policy?: string, opts: LoadOptions = {}): Promise<LoadResult> {
    this.intent++;
    return this.loadOwn(scenario, policy, opts);
  }

  /** `load` on behalf of an open already under way (it does not count as a newer request). */
  private async loadOwn(scenario: string, policy?: string, opts: LoadOptions = {}): Promise<LoadResult> {
    this.loadDepth++;
    try {
      return await this.loadNow(scenario, policy, opts);
    } finally {
      this.loadDepth--;
    }
  }

  private async loadNow(
    scenario: string,
    policy: string | undefined,
    opts: LoadOptions,
  ): Promise<LoadResult> {
    this.pause();
    this.seekToken++;
    const res = await this.api.load(scenario, policy);
    if (!res.ok) {
      useUi.setState({
        problems: {
          scenario: res.source === 'scenario' ? res.problems : [],
          policy: res.source === 'policy' ? res.problems : [],
        },
      });
      return res;
    }
    this.loaded = true;
    this.lastOk = res;
    this.texts = policy !== undefined ? { scenario, policy } : { scenario };
    this.markReady();
    // The address bar follows the run on its own (share/share.ts, liveAddress): after this load it
    // holds the new state, in a new history entry, so Back returns to the link that was open before.
    useUi.setState({
      ...(opts.id !== undefined ? { scenarioId: opts.id } : {}),
      scenarioName: res.name,
      description: res.description,
      kind: res.kind,
      totalSteps: res.totalSteps,
      problems: { scenario: [], policy: [] },
      decisions: [],
      selected: null,
      done: false,
    });
    this.apply(unpackFrame(await this.api.frame()));
    if (opts.playhead && opts.playhead > 0) await this.seek({ decision: opts.playhead });
    for (const fn of this.loadListeners) fn(this.texts, opts);
    if (this.playWhenLoaded) {
      this.playWhenLoaded = false;
      this.play();
    }
    return res;
  }

  async loadOrThrow(scenario: string, policy?: string): Promise<void> {
    const res = await this.load(scenario, policy);
    if (!res.ok) throw new Error(formatProblems(res.problems, res.source));
  }

  /** Switch to a shipped scenario, restoring the user's saved edits of it when there are any. */
  async openScenario(id: string): Promise<void> {
    this.loadDepth++;
    try {
      await this.openScenarioNow(id, ++this.intent);
    } finally {
      this.loadDepth--;
    }
  }

  private async openScenarioNow(id: string, mine: number): Promise<void> {
    // an edit of the scenario left is saved already; applied now, it would restart the new one
    clearTimeout(this.applyTimer);
    const text = scenarioText(id);
    const original: Texts = { scenario: text, policy: extractPolicy(text) };
    const read = await editsReady();
    // Something newer was asked for while the storage answered: that one stands.
    if (this.intent !== mine) return;
    const saved = savedEdits(id);
    rememberScenario(id);
    setTexts(saved ?? original, original);
    useUi.setState({ scenarioId: id });
    if (saved)
      useUi.setState({ message: 'Restored your edits of this scenario (Revert goes back to the original).' });
    if (saved) {
      const res = await this.loadOwn(saved.scenario, policyOverride(saved, original), { id });
      if (res.ok || this.intent !== mine) return;
      const problems = useUi.getState().problems;
      await this.loadOwn(original.scenario, undefined, { id });
      // Keep showing where the saved text is wrong (the editors hold it).
      useUi.setState({ problems });
      return;
    }
    await this.loadOwn(original.scenario, undefined, { id });
    if (!read)
      useUi.setState({
        message:
          'The browser’s storage did not answer in time, so any edits you saved here were not restored: the scenario opened as shipped.',
      });
  }

  /** Apply what the editors hold (after a pause in typing); the run restarts when it is valid. */
  async applyEdits(): Promise<LoadResult> {
    const { texts, original } = useEdits.getState();
    saveEdits(useUi.getState().scenarioId, texts, original);
    const policy = policyOverride(texts, original);
    // Back to exactly the texts the run on screen was built from (a typo undone): the run stays where
    // it is, only the problems of the text in between go.
    const built = this.texts;
    if (
      this.lastOk !== null &&
      built !== null &&
      built.scenario === texts.scenario &&
      built.policy === policy &&
      !this.followerOn()
    ) {
      this.intent++;
      useUi.setState({ problems: { scenario: [], policy: [] } });
      return this.lastOk;
    }
    return this.load(texts.scenario, policy);
  }

  /** Whether the loaded run's text names its Dynamo release (else the default one is modelled). */
  releaseSet(): boolean {
    return this.lastOk?.ok === true && this.lastOk.releaseSet;
  }

  /** Put the pristine scenario back into the editors and run it. */
  async revert(): Promise<void> {
    const { original } = useEdits.getState();
    setTexts(original, original);
    saveEdits(useUi.getState().scenarioId, original, original);
    useUi.setState({ message: null });
    await this.load(original.scenario);
  }

  /** A user edit: kept (and persisted) at once, applied after a pause in typing. */
  typed(which: keyof Texts, text: string): void {
    editText(which, text);
    const { texts, original } = useEdits.getState();
    saveEdits(useUi.getState().scenarioId, texts, original);
    clearTimeout(this.applyTimer);
    this.applyTimer = setTimeout(() => void this.applyEdits(), APPLY_DELAY_MS);
  }

  async reset(): Promise<void> {
    this.pause();
    if (!this.loaded) return;
    this.seekToken++;
    useUi.setState({ seek: null, selected: null });
    this.apply(unpackFrame(await this.api.reset()));
  }

  async step(n = 1): Promise<void> {
    this.pause();
    this.backGoal = null;
    if (!this.loaded) await this.ready;
    if (this.followerOn()) await this.follower?.advance(n);
    else {
      this.apply(unpackFrame(await this.api.step(n)));
      this.selectionFollows();
    }
  }

  /**
   * After a step forward or back (or a seek), a decision selected in the log moves to the one just taken (the
   * playhead's newest), as picking a line moves the playhead to it: stepping with → through a lesson
   * with an explanation open kept 'Why decision #3' and its highlight on screen while the ring drew
   * decision 5, and a link copied then carried that mismatch to the students.
   */
  private selectionFollows(): void {
    const { selected, decisionCount } = useUi.getState();
    if (selected === null || selected === decisionCount - 1) return;
    useUi.setState({ selected: decisionCount > 0 ? decisionCount - 1 : null });
  }

  /**
   * One decision back: a seek to the playhead minus one (the worker restarts from its nearest restore
   * point and replays the rest, so this is as exact as stepping forward).
   */
  async stepBack(): Promise<void> {
    if (!this.loaded) await this.ready;
    // While an earlier ← is still replaying, the playhead has not moved yet: count from the decision
    // that press asked for, so quick presses (and a held key's repeats) add up instead of all asking
    // for the same decision (tryout B1: five presses went back one).
    const pending = this.backGoal?.token === this.seekToken ? this.backGoal.decision : null;
    const at = pending ?? useUi.getState().decisionCount;
    if (at <= 0) return;
    const seek = this.seek({ decision: at - 1 });
    const token = this.seekToken;
    this.backGoal = { token, decision: at - 1 };
    await seek;
    if (this.backGoal?.token === token) this.backGoal = null;
  }

  /** Pull the current frame again (after a pause the last frames may have been light ones). */
  async refresh(): Promise<void> {
    if (!this.loaded) return;
    this.apply(unpackFrame(await this.api.frame()));
  }

  async runUntil(t: number): Promise<void> {
    this.pause();
    if (!this.loaded) await this.ready;
    this.apply(unpackFrame(await this.api.runUntil(t)));
  }

  /**
   * Move the playhead (decision count or time): the worker restarts from its nearest restore point
   * and replays deterministically from there, in slices, so progress shows.
   */
  async seek(target: SeekTarget): Promise<void> {
    this.pause();
    if (!this.loaded) return;
    const token = ++this.seekToken;
    const since = performance.now();
    for (;;) {
      const slice = await this.api.seek(target, 40, SNAPSHOT_EVERY_MS);
      const frame = unpackFrame(slice.frame);
      this.apply(frame);
      if (slice.finished || token !== this.seekToken) break;
      useUi.setState({
        seek: {
          at: slice.at,
          target: slice.target,
          from: slice.from,
          goal: target,
          time: frame.sim_time_s,
          landing: slice.landing,
          since,
        },
      });
    }
    if (token === this.seekToken) {
      useUi.setState({ seek: null });
      // ← and the timeline move a selected decision with the playhead, as Step does (a seek that
      // another one overtook lands elsewhere: the later one decides)
      this.selectionFollows();
    }
  }

  /**
   * Stop the seek under way where its replay has got to (a state of the run like any other: the
   * playhead then shows that decision). Nothing when no seek runs.
   */
  cancelSeek(): void {
    if (!useUi.getState().seek) return;
    this.seekToken++;
    useUi.setState({ seek: null });
    // the slice it stopped after may have been a light one: the views get the full state there
    void this.refresh();
  }

  private apply(frame: Frame): void {
    const ui = useUi.getState();
    let decisions = ui.decisions;
    if (frame.replace_log) decisions = frame.decisions.slice(-UI_LOG_LIMIT);
    else if (frame.decisions.length) decisions = [...decisions, ...frame.decisions].slice(-UI_LOG_LIMIT);
    useUi.setState({
      ...(frame.snapshot ? { snapshot: frame.snapshot } : {}),
      simTime: frame.sim_time_s,
      decisionCount: frame.decision_count,
      reach: Math.max(frame.reach, frame.decision_count),
      totalSteps: frame.total_steps,
      decisions,
      done: frame.done,
      frameBytesMax: Math.max(ui.frameBytesMax, frame.bytes),
    });
    if (frame.done && !this.follower?.pending()) this.pause();
    for (const fn of this.frameListeners) fn(frame);
  }

  play(): void {
    const ui = useUi.getState();
    if (!this.loaded) {
      // Pressed before the first run is ready: start as soon as it is.
      this.playWhenLoaded = true;
      return;
    }
    if (ui.playing || this.over()) return;
    this.seekToken++;
    ui.setPlaying(true);
    useUi.setState({ selected: null, seek: null });
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
        if (useUi.getState().done) {
          // this run is over: the follower plays on to its own end, then Play stops
          if (this.followerOn()) await this.follower?.advance(budget, 8);
          if (!this.followerOn()) this.pause();
          return;
        }
        const buf = await this.api.advance({
          decisions: budget,
          maxWallMs: 8,
          snapshotEveryMs: SNAPSHOT_EVERY_MS,
        });
        this.apply(unpackFrame(buf));
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

  /** Select a decision in the log: pauses and highlights what it touched. */
  select(seq: number | null): void {
    this.pause();
    useUi.setState({ selected: seq });
  }

  /**
   * Pick a decision in the log: select it and move the playhead to the moment just after it (the
   * views then show what the explanation talks about), as a click on the timeline would.
   */
  async pick(seq: number): Promise<void> {
    this.select(seq);
    if (useUi.getState().decisionCount !== seq + 1) await this.seek({ decision: seq + 1 });
  }

  async stats(): Promise<{ maxFrameBytes: number; lastSeekFrom: number }> {
    return this.api.stats();
  }
}
