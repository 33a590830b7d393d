/**
 * The features' panels: the explanation of the selected decision (inline, under the decision log)
 * and whichever of Sweep, Export, Import or Tour is open. Each is loaded on first use, so none of
 * them weighs on the page's first load.
 */
import { lazy, Suspense } from 'react';
import { useUi } from '../../state/store';
import type { Driver } from '../driver';
import { useFeatures } from './store';
import { TraceDrop } from './TraceDrop';
import './features.css';

const ExplanationPanel = lazy(() =>
  import('./ExplanationPanel').then((m) => ({ default: m.ExplanationPanel })),
);
const SweepPanel = lazy(() => import('./SweepPanel').then((m) => ({ default: m.SweepPanel })));
const ExportDialog = lazy(() => import('./ExportDialog').then((m) => ({ default: m.ExportDialog })));
const ImportDialog = lazy(() => import('./ImportDialog').then((m) => ({ default: m.ImportDialog })));
const TourPanel = lazy(() => import('./TourPanel').then((m) => ({ default: m.TourPanel })));

export function FeaturePanels({ driver }: { driver: Driver }) {
  const panel = useFeatures((s) => s.panel);
  const selected = useUi((s) => s.selected);
  return (
    <Suspense fallback={null}>
      <TraceDrop driver={driver} />
      {selected !== null && <ExplanationPanel />}
      {panel === 'sweep' && <SweepPanel driver={driver} />}
      {panel === 'export' && <ExportDialog driver={driver} />}
      {panel === 'import' && <ImportDialog driver={driver} />}
      {panel === 'tour' && <TourPanel driver={driver} />}
    </Suspense>
  );
}
