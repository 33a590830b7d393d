/**
 * The Share button and opening a link: glue between the codec, the editors' texts, the driver and the
 * page's URL. Bad links never break the page: they explain themselves and the default scenario opens.
 */
import { extractPolicy, policyOverride, setTexts, useEdits } from '../../state/edits';
import { usePrefs } from '../../state/prefs';
import { useUi } from '../../state/store';
import type { Driver } from '../driver';
import { useCompare } from '../compare/store';
import { useEmbed } from '../embed/store';
import { usePresent } from '../present/store';
import { fmtCount } from '../views/format';
import { DEFAULT_SCENARIO_ID, SCENARIOS } from '../scenarios';
import { heldTraceFile, localTraceFiles, missingTraceFile } from '../features/trace-file-store';
import {
  decodeShare,
  encodeShare,
  isShareFragment,
  onShareContributionChange,
  type SharedState,
  ShareTooLarge,
  shareContributionsBusy,
} from './codec';
import { checkTraceCopies, unusedSizesNote, useNeededTrace } from './needed-trace';
import { problemText } from '../../format/yaml';

function seedOf(text: string): number | undefined {
  const m = /^seed:\s*(-?\d+)\s*$/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The state the current view would be shared as. */
export function currentState(): SharedState {
  const ui = useUi.getState();
  const { texts, original } = useEdits.getState();
  const policy = policyOverride(texts, original);
  const state: SharedState = {
    scenario: texts.scenario,
    playhead: ui.decisionCount,
    layout: { theme: usePrefs.getState().theme, editor: ui.editorTab, speed: ui.speedIndex },
  };
  if (ui.scenarioId) state.scenarioId = ui.scenarioId;
  if (policy !== undefined) state.policy = policy;
  // the selected decision and its open explanation are part of the moment being shared
  if (ui.selected !== null && ui.selected < ui.decisionCount) {
    state.selected = ui.selected;
    state.explain = true;
  }
  const seed = seedOf(texts.scenario);
  if (seed !== undefined) state.seed = seed;
  // the dropped traces the run replays, by size: the receiver's copy is checked against it
  const bytes: Record<string, number> = {};
  for (const name of localTraceFiles(texts.scenario)) {
    const f = heldTraceFile(name);
    if (f !== null) bytes[name] = f.size;
  }
  if (Object.keys(bytes).length > 0) state.traceBytes = bytes;
  return state;
}

/** Put the state in the URL fragment, copy the link, and show it (the clipboard may be unavailable). */
export async function share(driver: Driver): Promise<string> {
  driver.pause();
  let hash: string;
  try {
    hash = await encodeShare(currentState());
  } catch (err) {
    if (!(err instanceof ShareTooLarge)) throw err;
    // the message says to send the texts as a file: the banner offers the download beside it
    useUi.setState({ message: err.message, messageDownload: err.message });
    return '';
  }
  history.replaceState(null, '', hash);
  const link = location.href;
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(link);
      copied = true;
    }
  } catch {
    copied = false;
  }
  useUi.setState({ shareLink: link, shareCopied: copied });
  return link;
}

/** Opens the page's share link if there is one; returns false when the default scenario should open. */
export async function openFromLocation(driver: Driver): Promise<boolean> {
  const hash = location.hash;
  if (!isShareFragment(hash)) return false;
  return openLink(driver, hash);
}

/** Opens a share link's fragment; returns false when the default scenario should open. */
export async function openLink(
  driver: Driver,
  hash: string,
  opts: { anyCopy?: boolean } = {},
): Promise<boolean> {
  const res = await decodeShare(hash);
  if (!res.ok) {
    useUi.setState({
      message: `This share link cannot be opened: ${res.reason}. Showing the default scenario instead.`,
    });
    return false;
  }
  const s = res.state;
  // a run on a dropped trace: the link cannot carry the file; ask for it unless this page holds it
  // (the sender's copy: a file of that name with another size is asked for again)
  const missing = missingTraceFile(s.scenario);
  // (only the files its scenario replays: an entry for another file held here is not about this run)
  const replayed = localTraceFiles(s.scenario);
  const other = checkTraceCopies(s, replayed, (name) => heldTraceFile(name)?.size);
  if (missing !== null || (other !== null && !opts.anyCopy)) {
    useNeededTrace.setState({
      file: missing ?? other?.name ?? '',
      hash,
      problem: missing === null ? (other?.message ?? '') : '',
      reading: false,
      otherCopy: missing === null,
    });
    // the page shows the default scenario meanwhile: words about a link opened before are stale
    useUi.setState({ message: null });
    return false;
  }
  useNeededTrace.setState({ file: null, hash: '', problem: '' });
  const shipped = SCENARIOS.find((x) => x.id === s.scenarioId);
  const id = shipped && shipped.text === s.scenario ? shipped.id : '';
  const original = { scenario: s.scenario, policy: extractPolicy(s.scenario) };
  setTexts({ scenario: s.scenario, policy: s.policy ?? original.policy }, original);
  if (s.layout.theme) usePrefs.setState({ theme: s.layout.theme });
  useUi.setState({
    scenarioId: id,
    ...(s.layout.editor ? { editorTab: s.layout.editor } : {}),
    ...(s.layout.speed !== undefined ? { speedIndex: s.layout.speed } : {}),
  });
  const loaded = await driver.load(s.scenario, s.policy, { id, playhead: s.playhead, fromLink: true });
  if (!loaded.ok) {
    useUi.setState({
      message: `The shared scenario does not load (${loaded.problems[0]?.line}:${loaded.problems[0]?.col}: ${loaded.problems[0] ? problemText(loaded.problems[0]) : ''}). Showing the default scenario instead.`,
    });
    return false;
  }
  if (s.selected !== undefined && s.explain !== false) driver.select(s.selected);
  const at = useUi.getState().decisionCount;
  // a lecturer's link made while presenting (?present=1) opens presenting: the student finds no
  // decision log and no editor, and on a phone the pressed Present is folded in the Menu
  const presenting =
    usePresent.getState().presenting && !useCompare.getState().active
      ? ' It opens in presentation mode: the decision log and the editor are hidden until you leave it (Present, in the Menu on a small screen, or P).'
      : '';
  // an unreadable record of trace sizes that concerns no file the run replays changes nothing: a
  // short note says so (not a word about it, and a damaged link looked whole)
  const note = unusedSizesNote(s, replayed);
  useUi.setState({
    message:
      // the replay to the link's playhead was stopped (Stop seeking): say so, not "as it was shared"
      (at < s.playhead && !useUi.getState().done
        ? `Opened a shared link, but its replay was stopped at decision ${fmtCount(at)} of ${fmtCount(s.playhead)}: Step, Play or the timeline go on from there.`
        : res.dropped?.length
          ? `Opened a shared link, but part of it is damaged: kept the scenario, policy and playhead; left out ${res.dropped.join(' and ')}.`
          : opts.anyCopy && other?.unchecked
            ? `Opened a shared link with your copy of its trace, which could not be checked against the sender’s (${other.unrecorded ? 'the link records no size for it' : 'the link’s record of its size is unreadable'}): this may not be the run as it was shared.`
            : opts.anyCopy && other !== null
              ? 'Opened a shared link with your copy of its trace, which is not the sender’s: this is not the run as it was shared.'
              : 'Opened a shared link: this is the run as it was shared.') +
      (note ? ` ${note}` : '') +
      presenting,
  });
  return true;
}

/** Remember the picked scenario so a reload comes back to it (with its saved edits). */
export function rememberScenario(id: string): void {
  if (id) usePrefs.setState({ lastScenario: id });
}

function lastScenario(): string {
  const id = usePrefs.getState().lastScenario;
  return id && SCENARIOS.some((s) => s.id === id) ? id : DEFAULT_SCENARIO_ID;
}

const LIVE_KEY = 'fairground:live-hash';
/** Fragments of this tab's own that a reload still recognises (see isOwnReload). */
const LIVE_KEEP = 3;

/** The fragments this tab wrote last, newest first. */
function ownFragments(): string[] {
  try {
    return (sessionStorage.getItem(LIVE_KEY) ?? '').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** Remember a fragment this tab wrote, so a reload can tell its own state from a link it was given. */
function rememberLive(hash: string): void {
  try {
    const kept = [hash, ...ownFragments().filter((h) => h !== hash)].slice(0, LIVE_KEEP);
    sessionStorage.setItem(LIVE_KEY, kept.join('\n'));
  } catch {
    /* storage blocked */
  }
}

/**
 * A reload of a page whose address this tab wrote itself reopens the work as before (last scenario,
 * saved edits, valid or not, theme) instead of treating its own address as a link it was sent. Not
 * only the newest fragment counts: a reload asked for just before the address bar moved on reloads
 * the previous one (seen as a theme switched back after a quick toggle and reload).
 */
function isOwnReload(): boolean {
  try {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return nav?.type === 'reload' && ownFragments().includes(location.hash);
  } catch {
    return false;
  }
}

/** The share fragment this tab opened last (at start or from a hashchange). */
let openedFragment = '';

/** Wait after the last change before the address bar is rewritten (ms). */
export const LIVE_URL_DEBOUNCE_MS = 400;

/**
 * Whether the address bar follows the run, as `data-live-address` on the root element: `pending`
 * while a rewrite is due, `current` once the address holds the state, `off` in embed mode (browser
 * tests wait for it instead of sleeping past the debounce).
 */
function addressState(state: 'pending' | 'current' | 'off'): void {
  document.documentElement.dataset.liveAddress = state;
}

/**
 * Keep the address bar on the current state, so copying the URL works like Share: rewritten (debounced)
 * on every change of playhead, selection, texts or layout with `replaceState`; a load (a scenario
 * opened, an edit that restarts the run) adds one history entry instead, so Back returns to the run
 * before it, and stepping never floods the history. Not in embed mode (the host page owns the frame).
 */
export function liveAddress(driver: Driver): () => void {
  if (useEmbed.getState().config) {
    addressState('off');
    return () => {};
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pushNext = false;
  let ready = false;
  let last = '';
  const write = async () => {
    await rewrite();
    // nothing rescheduled meanwhile: the address holds the state (or, after an edit that did not
    // load, the last run that did)
    if (timer === null) addressState('current');
  };
  const rewrite = async () => {
    timer = null;
    const ui = useUi.getState();
    // mid-load the texts are new and the run is old: write once the load is done (it schedules again)
    if (!ui.kind || ui.seek || driver.loading || shareContributionsBusy()) return schedule();
    // an edit that does not load keeps the address on the last run that did
    if (ui.problems.scenario.length || ui.problems.policy.length) return;
    // A share link in the address bar that this tab neither wrote nor opened was just pasted (its
    // hashchange is still queued): it is the user's, never overwritten; its opening schedules again.
    if (isShareFragment(location.hash) && location.hash !== last && location.hash !== openedFragment) return;
    const before = location.hash;
    let hash: string;
    try {
      hash = await encodeShare(currentState());
    } catch (err) {
      // too large for a link that opens: the address keeps the last state that fitted
      if (err instanceof ShareTooLarge) return;
      throw err;
    }
    // an edit that did not load came in while this was encoded: the address keeps the last run
    const now = useUi.getState().problems;
    if (now.scenario.length || now.policy.length) return;
    // a link pasted into the address bar while this one was encoded is the user's: never overwrite it
    if (location.hash !== before) return;
    if (hash === last && location.hash === hash) return;
    last = hash;
    rememberLive(hash);
    const url = location.pathname + location.search + hash;
    if (pushNext && location.hash !== hash) history.pushState(null, '', url);
    else history.replaceState(history.state, '', url);
    pushNext = false;
  };
  const schedule = () => {
    if (!ready) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => void write(), LIVE_URL_DEBOUNCE_MS);
    addressState('pending');
  };
  const offLoad = driver.onLoad((_texts, opts) => {
    // the first load (the page's own link or start-up scenario) replaces; later loads are new entries
    pushNext = ready && !opts.fromLink;
    ready = true;
    schedule();
  });
  const offUi = useUi.subscribe((s, p) => {
    if (
      s.decisionCount !== p.decisionCount ||
      s.selected !== p.selected ||
      s.editorTab !== p.editorTab ||
      s.speedIndex !== p.speedIndex ||
      s.scenarioId !== p.scenarioId
    )
      schedule();
  });
  const offEdits = useEdits.subscribe((s, p) => {
    if (s.texts !== p.texts) schedule();
  });
  const offPrefs = usePrefs.subscribe((s, p) => {
    if (s.theme !== p.theme) schedule();
  });
  // compare mode entered or left, or its run B moved on by itself (A over): the link changes too
  const offContributions = onShareContributionChange(schedule);
  return () => {
    if (timer !== null) clearTimeout(timer);
    offContributions();
    offLoad();
    offUi();
    offEdits();
    offPrefs();
  };
}

/** First load: a share link if the URL has one, else the last scenario used here, else the default. */
export async function start(driver: Driver): Promise<void> {
  const ownReload = isShareFragment(location.hash) && isOwnReload();
  liveAddress(driver);
  // A link pasted into the address bar of an open tab only changes the fragment.
  openedFragment = location.hash;
  window.addEventListener('hashchange', (e) => {
    // the fragment this event is about, not whatever the address holds by the time it runs
    const hash = new URL(e.newURL).hash;
    if (!isShareFragment(hash)) return;
    openedFragment = hash;
    void openLink(driver, hash).then((ok) => {
      if (!ok) void driver.openScenario(DEFAULT_SCENARIO_ID);
    });
  });
  if (isShareFragment(location.hash) && !ownReload) {
    if (await openFromLocation(driver)) return;
    await driver.openScenario(DEFAULT_SCENARIO_ID);
    return;
  }
  await driver.openScenario(lastScenario());
}
