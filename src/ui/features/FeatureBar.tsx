/** The features' buttons in the masthead: Sweep, Export, Tour and Compare. */
import { useCompare } from '../compare/store';
import { usePresent } from '../present/store';
import { type FeaturePanel, useFeatures } from './store';

function toggle(panel: Exclude<FeaturePanel, null>): void {
  const open = useFeatures.getState().panel;
  useFeatures.setState({ panel: open === panel ? null : panel });
}

export function FeatureBar() {
  const panel = useFeatures((s) => s.panel);
  const comparing = useCompare((s) => s.active);
  const presenting = usePresent((s) => s.presenting);
  // A sweep keeps running when its dialog is closed (Esc, ×): the button says so, with its progress,
  // so the work in the background is not invisible (tryout)
  const running = useFeatures((s) => (s.sweep?.status === 'running' ? s.sweep : null));
  const behind = running !== null && panel !== 'sweep';
  return (
    <div className="toolbar feature-bar" role="toolbar" aria-label="Features">
      <button
        type="button"
        aria-pressed={panel === 'sweep'}
        onClick={() => toggle('sweep')}
        title={
          behind
            ? `A sweep is running: ${running.done} of ${running.total} runs done. Open Sweep to follow it or cancel it.`
            : 'Sweep one parameter over a range and plot the frontier'
        }
      >
        Sweep
        {behind && (
          <span className="sweep-badge" data-testid="sweep-running">
            {' '}
            running {running.done}/{running.total}
          </span>
        )}
      </button>
      <button
        type="button"
        aria-pressed={panel === 'export' || panel === 'import'}
        onClick={() => toggle('export')}
        title="Download the run (JSON, CSV) or a chart (SVG, PNG); import a request trace or a BLIS spec"
      >
        Export
      </button>
      <button
        type="button"
        aria-pressed={panel === 'tour'}
        onClick={() => toggle('tour')}
        title="Step-by-step lessons on the shipped scenarios"
      >
        Tour
      </button>
      <button
        type="button"
        aria-pressed={comparing}
        onClick={() => useCompare.setState({ dialogOpen: true })}
        title={
          presenting && !comparing
            ? 'Run a second policy or parameter set next to this one on the same workload. Starting it leaves presentation mode, which shows one run: Compare shows two side by side (Present again after Exit compare)'
            : 'Run a second policy or parameter set next to this one on the same workload'
        }
      >
        Compare
      </button>
    </div>
  );
}
