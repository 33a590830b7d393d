import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { DownloadTexts } from './DownloadTexts';
import { useShallow } from 'zustand/react/shallow';
import { usePrefs } from '../state/prefs';
import { type UiState, useUi } from '../state/store';

/** From this speed step on (250 decisions/s), views animate nothing while playing. */
const FAST_SPEED_INDEX = 7;
import { CompareColumns, CompareDialog, DifferencePanel, useCompare } from './compare';
import { Controls } from './Controls';
import { NeededTraceBanner } from './share/NeededTrace';
import { CrashBanner } from './CrashMessage';
import { DecisionLog } from './DecisionLog';
import type { Driver } from './driver';
import { EmbedApp } from './embed/EmbedApp';
import type { EmbedPanel } from './embed/panels';
import { useEmbed } from './embed/store';
import { EditorPanel } from './editor/EditorPanel';
import { FeatureBar, FeaturePanels } from './features';
import { useFeatures } from './features/store';
import { HelpOverlay, ShareDialog } from './Overlays';
import { PresentButton } from './present/PresentButton';
import { installKeys } from './keys';
import { usePresentingShown } from './present/toggle';
import { MenuButton, PhoneNav, useTopbar } from './phone/PhoneMenu';
import { usePhone, usePhoneLayout } from './phone/store';
import { ScenarioPanel } from './ScenarioPanel';
import { SeekHint } from './SeekHint';
import { Timeline } from './Timeline';
import { useCalm } from './useCalm';
import {
  AlgorithmSteps,
  algorithmDetail,
  ClassQueues,
  ClassService,
  ClientService,
  DrrRing,
  Figures,
  Guarantees,
  latestStepDecision,
  runListings,
  type StepDecision,
  Workers,
} from './views';
import { type ServiceScale, ServiceScaleContext, sharedServiceScale } from './views/service-scale';
import { TimeSeekContext } from './views/time-seek';
import type { Highlight } from './views/types';

/** The radix node an admission matched (its path is outlined in that worker's tree). */
function matchedNode(detail: unknown): number | undefined {
  const n = (detail as { matched_node?: unknown } | undefined)?.matched_node;
  return typeof n === 'number' ? n : undefined;
}

function useHighlight(): Highlight | null {
  return useUi(
    useShallow((s) => {
      if (s.selected === null) return null;
      const d = s.decisions.find((x) => x.seq === s.selected);
      if (!d) return null;
      return {
        request: d.request,
        client: d.client,
        worker: typeof d.worker === 'number' ? d.worker : undefined,
        class: d.class,
        node: matchedNode(d.detail),
      };
    }),
  );
}

const selectSnapshot = (s: UiState) => s.snapshot;

/**
 * The decision the algorithm steps panel reads: the one selected in the log, else the latest one that
 * carries a detail of `algos` (latestStepDecision: the log's window, else the snapshot's record).
 */
function useStepDecision(algos: readonly string[]): { decision: StepDecision | null; selected: boolean } {
  const key = algos.join(',');
  // primitives only (seq, selected), so the selector's answer compares equal while nothing changed
  const [seq, selected] = useUi(
    useShallow((s): [number | null, boolean] => {
      if (key === '') return [null, false];
      if (s.selected !== null && s.decisions.some((x) => x.seq === s.selected)) return [s.selected, true];
      return [latestStepDecision(s.decisions, s.snapshot, key.split(','))?.seq ?? null, false];
    }),
  );
  const d = useUi((s) =>
    seq === null
      ? undefined
      : (s.decisions.find((x) => x.seq === seq) ??
        (s.snapshot?.kind === 'cluster'
          ? s.snapshot.latest_algorithm.find((x) => x.seq === seq)
          : undefined)),
  );
  return useMemo(
    () => ({ decision: d ? { seq: d.seq, kind: d.kind, detail: algorithmDetail(d) } : null, selected }),
    [d, selected],
  );
}

/**
 * While a tour runs, the service curves and the Guarantees gap chart keep one y scale over its steps:
 * the largest service (and gap axis) any step has shown so far (it only grows), so comparing LPM's
 * step with DLPM's compares heights on one axis instead of two rescaled ones.
 */
function useTourScale(snapshot: UiState['snapshot']): ServiceScale | null {
  const tourId = useFeatures((s) => s.tour?.id ?? null);
  const kept = useRef<{ id: string; scale: ServiceScale } | null>(null);
  let scale: ServiceScale | null = null;
  if (tourId === null) kept.current = null;
  else {
    const now = sharedServiceScale([snapshot]);
    const prev = kept.current?.id === tourId ? kept.current.scale : { cumulative: 0, rate: 0, gap: 0 };
    scale = {
      cumulative: Math.max(prev.cumulative, now.cumulative),
      rate: Math.max(prev.rate, now.rate),
      gap: Math.max(prev.gap, now.gap),
    };
    kept.current = { id: tourId, scale };
  }
  const cumulative = scale?.cumulative ?? 0;
  const rate = scale?.rate ?? 0;
  const gap = scale?.gap ?? 0;
  return useMemo(
    () => (cumulative > 0 && tourId !== null ? { cumulative, rate, gap, reserve: tourId } : null),
    [cumulative, rate, gap, tourId],
  );
}

/** What a lesson needs on the projector: the DRR views, or the cluster's service, bounds and workers. */
const PRESENT_DRR: readonly EmbedPanel[] = ['ring', 'queues'];
const PRESENT_CLUSTER: readonly EmbedPanel[] = ['clients', 'guarantees', 'workers'];

/** The views; `only` (embed mode) keeps just the chosen panels. */
function Views({ only, presenting = false }: { only?: readonly EmbedPanel[]; presenting?: boolean }) {
  const snapshot = useCalm(selectSnapshot);
  const kind = useUi((s) => s.kind);
  const highlight = useHighlight();
  const props = { snapshot, highlight };
  const hasDrr = snapshot?.drr !== undefined;
  const lesson = presenting
    ? kind === 'arbitration'
      ? PRESENT_DRR
      : hasDrr
        ? [...PRESENT_DRR, ...PRESENT_CLUSTER]
        : PRESENT_CLUSTER
    : undefined;
  const keep = only ?? lesson;
  const listings = runListings(snapshot);
  const stepAt = useStepDecision(listings.map((l) => l.name));
  const tourScale = useTourScale(snapshot);
  const show = (p: EmbedPanel) => !keep || keep.includes(p);
  // data-decisions: the playhead of the snapshot the views draw (which lags the store while playing)
  if (kind === 'arbitration') {
    return (
      <div className="views sandbox" data-decisions={snapshot?.decisions}>
        {show('ring') && <DrrRing {...props} />}
        {show('queues') && <ClassQueues {...props} />}
      </div>
    );
  }
  // Without policy-class queues the ring and the class queues only hold a hint: show them last.
  const queues = hasDrr;
  const steps = <AlgorithmSteps listings={listings} {...stepAt} />;
  return (
    <ServiceScaleContext.Provider value={tourScale}>
      <div className="views cluster" data-decisions={snapshot?.decisions}>
        {queues && show('ring') && <DrrRing {...props} />}
        {queues && show('queues') && <ClassQueues {...props} />}
        {presenting ? null : show('workers') && <Workers {...props} />}
        {show('clients') && <ClientService {...props} />}
        {show('guarantees') && <Guarantees {...props} />}
        {show('clients') && steps}
        {presenting && show('workers') && <Workers {...props} />}
        {/* the class service charts are long: after the views a lesson reads first (#13.1) */}
        {!presenting && queues && show('queues') && <ClassService {...props} />}
        {show('figures') && <Figures {...props} />}
        {!queues && show('ring') && <DrrRing {...props} />}
        {!queues && show('queues') && <ClassQueues {...props} />}
      </div>
    </ServiceScaleContext.Provider>
  );
}

export function App({ driver }: { driver: Driver }) {
  const message = useUi((s) => s.message);
  const messageDownload = useUi((s) => s.messageDownload);
  const theme = usePrefs((s) => s.theme);
  const comparing = useCompare((s) => s.active);
  const presenting = usePresentingShown();
  // Fast play: many updates per second; motion (transitions, flashes) would only cost frames.
  const fast = useUi((s) => s.playing && s.speedIndex >= FAST_SPEED_INDEX);
  useEffect(() => installKeys(window, driver), [driver]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  // Entering presentation mode starts the lesson's views at their top: a centre column scrolled
  // before P would open the projector mid-panel with the ring cut off.
  const centerRef = useRef<HTMLDivElement>(null);
  const phoneLayout = usePhoneLayout();
  useLayoutEffect(() => {
    if (!presenting) return;
    if (centerRef.current) centerRef.current.scrollTop = 0;
    const page = document.scrollingElement;
    if (page) page.scrollTop = 0;
  }, [presenting]);
  const menuOpen = usePhone((s) => s.menu);
  const topbar = useTopbar();
  const embed = useEmbed((s) => s.config);
  // a click on any time chart seeks the run to that simulated time
  const seekTo = useMemo(() => (t: number) => void driver.seek({ time: t }), [driver]);
  if (embed)
    return (
      <TimeSeekContext.Provider value={seekTo}>
        <EmbedApp driver={driver} config={embed} views={<Views only={embed.panels} />} />
      </TimeSeekContext.Provider>
    );

  const left = (
    <div key="left" className="column left">
      <ScenarioPanel />
      <EditorPanel driver={driver} />
    </div>
  );
  const middle = comparing ? (
    <CompareColumns key="compare" />
  ) : (
    <div key="center" className="column center" ref={centerRef}>
      <Views presenting={presenting} />
    </div>
  );
  const right = (
    <div key="right" className="column right">
      {comparing && <DifferencePanel driver={driver} />}
      <DecisionLog driver={driver} />
      <FeaturePanels driver={driver} />
    </div>
  );
  return (
    <TimeSeekContext.Provider value={seekTo}>
      <div
        className={presenting ? 'app presenting' : 'app'}
        data-motion={fast ? 'off' : 'on'}
        data-presenting={presenting ? 'on' : 'off'}
      >
        {/* On a phone one sticky header: scenario, transport and timeline; the rest behind Menu. */}
        <div className="topbar" data-menu={menuOpen ? 'open' : 'closed'} ref={topbar}>
          <header className="masthead">
            <h1>
              Fairground <span className="tagline">fair &amp; locality-aware LLM request scheduling</span>
            </h1>
            <Controls
              driver={driver}
              extra={<PresentButton />}
              menu={(place) => <MenuButton place={place} />}
            />
          </header>
          <div className="subbar">
            <Timeline driver={driver} />
            <FeatureBar />
          </div>
          <PhoneNav />
        </div>
        <CrashBanner />
        <NeededTraceBanner driver={driver} />
        <SeekHint driver={driver} />
        {message && (
          <div className="banner" role="alert">
            <span>{message}</span>
            {messageDownload === message && <DownloadTexts label="Download the texts" />}
            <button
              type="button"
              className="small"
              onClick={() => useUi.setState({ message: null })}
              aria-label="Dismiss message"
            >
              ×
            </button>
          </div>
        )}
        <main className={comparing ? 'workspace comparing' : 'workspace'}>
          {/* On a phone the page is one column in lesson order (views, log, then the scenario and the
              editor): the columns come in that order in the page too, so that Tab follows what is seen
              (drawn in that order by CSS alone, Tab went from the timeline to the scenario text and the
              editor at the page's end, then back up to the views). */}
          {phoneLayout ? [middle, right, left] : [left, middle, right]}
        </main>
        <HelpOverlay />
        <ShareDialog />
        <CompareDialog driver={driver} />
      </div>
    </TimeSeekContext.Provider>
  );
}
