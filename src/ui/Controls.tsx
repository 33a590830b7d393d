import { SPEEDS, speedLabel, useUi } from '../state/store';
import type { Driver } from './driver';
import { SCENARIOS, scenarioText } from './scenarios';

export function formatSimTime(t: number): string {
  return `${t.toFixed(3)} s`;
}

export function Controls({ driver }: { driver: Driver }) {
  const playing = useUi((s) => s.playing);
  const speedIndex = useUi((s) => s.speedIndex);
  const simTime = useUi((s) => s.simTime);
  const scenarioId = useUi((s) => s.scenarioId);
  const done = useUi((s) => s.done);

  return (
    <div className="toolbar" role="toolbar" aria-label="Simulation controls">
      <label className="field">
        <span>Scenario</span>
        <select
          aria-label="Scenario"
          value={scenarioId}
          onChange={(e) => driver.load(scenarioText(e.target.value), undefined, e.target.value)}
        >
          {SCENARIOS.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="primary"
        onClick={() => driver.toggle()}
        disabled={done && !playing}
        title={playing ? 'Pause (Space)' : 'Play (Space)'}
      >
        {playing ? 'Pause' : 'Play'}
      </button>
      <button
        type="button"
        onClick={() => driver.step(1)}
        disabled={done}
        title="One scheduling decision forward (→)"
      >
        Step
      </button>
      <button type="button" onClick={() => driver.reset()} title="Restart from t = 0 (R)">
        Reset
      </button>
      <label className="field speed">
        <span>Speed</span>
        <input
          type="range"
          aria-label="Speed"
          min={0}
          max={SPEEDS.length - 1}
          step={1}
          value={speedIndex}
          aria-valuetext={speedLabel(speedIndex)}
          onChange={(e) => useUi.getState().setSpeedIndex(Number(e.target.value))}
        />
        <span className="speed-value">{speedLabel(speedIndex)}</span>
      </label>
      <output className="sim-time" aria-label="Simulated time" aria-live="off">
        {formatSimTime(simTime)}
      </output>
    </div>
  );
}
