/**
 * The embedded playground: a one-line control strip (Play/Pause, Step, Reset, Simulated time, with the
 * contract's accessible names) above the chosen panels. No editors, no scenario panel, no feature bar.
 * The views arrive as `views` (App filters them to the chosen panels); the log is added here.
 */
import { useEffect } from 'react';
import { useUi } from '../../state/store';
import { SimTime, Transport } from '../Controls';
import { DecisionLog } from '../DecisionLog';
import type { Driver } from '../driver';
import { SCENARIOS } from '../scenarios';
import { type EmbedConfig, EMBED_PANELS, fullUrl, PANEL_REGION, SANDBOX_PANELS } from './panels';
import { applySharedPanels } from './store';
import { setFold } from '../phone/store';
import './embed.css';

function EmbedControls({ driver }: { driver: Driver }) {
  const scenarioId = useUi((s) => s.scenarioId);
  const title = SCENARIOS.find((s) => s.id === scenarioId)?.title ?? 'Shared scenario';
  return (
    <header className="embed-strip">
      <div className="toolbar" role="toolbar" aria-label="Simulation controls">
        <Transport driver={driver} />
        <SimTime />
      </div>
      <span className="embed-title" title={title}>
        {title}
      </span>
      <a
        className="embed-open"
        href={fullUrl(window.location.href)}
        target="_blank"
        rel="noopener noreferrer"
        title="Open this run in the full playground (new tab)"
      >
        Fairground ↗
      </a>
    </header>
  );
}

export function EmbedApp({
  driver,
  config,
  views,
}: {
  driver: Driver;
  config: EmbedConfig;
  views: React.ReactNode;
}) {
  // Problems (a bad link, say) show; the note that a shared link opened would only be noise here.
  const message = useUi((s) => (s.message?.startsWith('Opened a shared link') ? null : s.message));
  const kind = useUi((s) => s.kind);
  const offered: readonly string[] = kind === 'arbitration' ? SANDBOX_PANELS : EMBED_PANELS;
  const none = kind !== null && !config.panels.some((p) => offered.includes(p));
  useEffect(() => {
    void applySharedPanels();
    // A frame under 900 px wide (a docs column; the snippet's 960 px shrinks to fit) gets the phone's
    // layout, which folds the log to one line: the log an embed asks for is shown unfolded.
    setFold('log', true);
  }, []);
  return (
    <div className="app embed" data-panels={config.panels.join(' ')}>
      <EmbedControls driver={driver} />
      {message && (
        <p className="embed-message" role="alert">
          {message}
        </p>
      )}
      {none && (
        <p className="embed-message">
          This scenario has none of the chosen panels ({config.panels.map((p) => PANEL_REGION[p]).join(', ')}
          ).
        </p>
      )}
      <main className="embed-panels">
        {views}
        {config.panels.includes('log') && <DecisionLog driver={driver} />}
      </main>
    </div>
  );
}
