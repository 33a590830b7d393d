/** The features' buttons in the masthead: Sweep, Export, Tour (and Compare, not built yet). */
import { type FeaturePanel, useFeatures } from './store';

function toggle(panel: Exclude<FeaturePanel, null>): void {
  const open = useFeatures.getState().panel;
  useFeatures.setState({ panel: open === panel ? null : panel });
}

export function FeatureBar() {
  const panel = useFeatures((s) => s.panel);
  return (
    <div className="toolbar feature-bar" role="toolbar" aria-label="Features">
      <button
        type="button"
        aria-pressed={panel === 'sweep'}
        onClick={() => toggle('sweep')}
        title="Sweep one parameter over a range and plot the frontier"
      >
        Sweep
      </button>
      <button
        type="button"
        aria-pressed={panel === 'export' || panel === 'import'}
        onClick={() => toggle('export')}
        title="Download the run (JSON, CSV) or a chart (SVG, PNG); import a BLIS spec"
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
      <span className="has-tip" title="Compare two runs side by side: coming soon">
        <button type="button" disabled aria-describedby="compare-tip">
          Compare
        </button>
        <span id="compare-tip" role="tooltip" className="tip">
          coming soon
        </span>
      </span>
    </div>
  );
}
