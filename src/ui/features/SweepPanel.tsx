/**
 * Sweeps: pick one parameter and a range (or a preset that re-creates a figure of the DLPM paper),
 * run every point to the end in parallel workers, watch the progress, and read the frontier. Each
 * point in the charts opens that run in the playground.
 */
import { useMemo, useState } from 'react';
import { extractPolicy } from '../../state/edits';
import { useUi } from '../../state/store';
import { applyPointOverrides } from '../../worker/sweep-runner';
import type { Driver } from '../driver';
import { SCENARIOS, scenarioText } from '../scenarios';
import { Modal } from '../Modal';
import { currentTexts, openInPlayground } from './playground';
import { SweepCharts } from './SweepCharts';
import { cancelSweep, startSweep, sweepConcurrency } from './sweep-client';
import { localTraceTables } from './trace-file-store';
import { valueTags } from './sweep-tags';
import {
  defaultParam,
  defaultRange,
  SWEEP_PRESETS,
  type SweepParam,
  setFor,
  sweepParams,
} from './sweep-params';
import { sweepValues } from '../../worker/sweep-runner';
import { type Scale, type SweepRun, useFeatures } from './store';

/** Most points one sweep runs (each is a whole run of the scenario, in a worker of its own). */
export const MAX_SWEEP_POINTS = 40;
interface Form {
  presetId: string;
  key: string;
  from: string;
  to: string;
  points: string;
  scale: Scale;
}

function shortName(label: string): string {
  return label.split(' — ')[0].split(' (')[0];
}

function baseTexts(presetId: string): { scenario: string; policy?: string; name: string; id?: string } {
  const preset = SWEEP_PRESETS.find((p) => p.id === presetId);
  if (preset && SCENARIOS.some((s) => s.id === preset.scenario)) {
    const text = scenarioText(preset.scenario);
    const name = SCENARIOS.find((s) => s.id === preset.scenario)?.title ?? preset.scenario;
    return { scenario: text, name, id: preset.scenario };
  }
  const cur = currentTexts();
  return {
    scenario: cur.scenario,
    ...(cur.policy !== undefined ? { policy: cur.policy } : {}),
    name: useUi.getState().scenarioName || 'current scenario',
  };
}

function initialForm(params: SweepParam[]): Form {
  const p = defaultParam(params);
  if (!p) return { presetId: '', key: '', from: '', to: '', points: '5', scale: 'log' };
  const r = defaultRange(p);
  return {
    presetId: '',
    key: p.key,
    from: String(r.from),
    to: String(r.to),
    points: String(r.points),
    scale: r.scale,
  };
}

export function SweepPanel({ driver }: { driver: Driver }) {
  const sweep = useFeatures((s) => s.sweep);
  const close = () => useFeatures.setState({ panel: null });
  const [form, setForm] = useState<Form>(() => initialForm(sweepParams(currentTexts().scenario)));
  const base = useMemo(() => baseTexts(form.presetId), [form.presetId]);
  const params = useMemo(() => sweepParams(base.scenario, base.policy), [base]);
  const param = params.find((p) => p.key === form.key) ?? null;
  const values = param
    ? sweepValues({
        from: Number(form.from),
        to: Number(form.to),
        points: Number(form.points),
        scale: form.scale,
        integer: param.integer,
      }).filter((v) => v >= param.min && v <= param.max)
    : [];
  const count = Number(form.points);
  const problem = !param
    ? 'This scenario has nothing to sweep (the DRR sandbox scripts have no cluster run): pick a preset or a cluster scenario.'
    : !Number.isInteger(count) || count < 1 || count > MAX_SWEEP_POINTS
      ? `Points: a whole number from 1 to ${MAX_SWEEP_POINTS} (each point is one whole run of the scenario).`
      : values.length === 0
        ? form.scale === 'log'
          ? 'A log range needs from and to above 0.'
          : 'Give a range and a number of points.'
        : null;
  const running = sweep?.status === 'running';

  const pickPreset = (id: string) => {
    const preset = SWEEP_PRESETS.find((p) => p.id === id);
    if (preset)
      setForm({
        presetId: id,
        key: preset.key,
        from: String(preset.from),
        to: String(preset.to),
        points: String(preset.points),
        scale: preset.scale,
      });
    else setForm(initialForm(sweepParams(currentTexts().scenario)));
  };

  const pickParam = (key: string) => {
    const p = params.find((x) => x.key === key);
    if (!p) return;
    const r = defaultRange(p);
    setForm({
      ...form,
      key,
      from: String(r.from),
      to: String(r.to),
      points: String(r.points),
      scale: r.scale,
    });
  };

  const run = async () => {
    if (!param || values.length === 0) return;
    // a dropped trace lives in the page's worker: every sweep worker gets a copy of each parsed table
    const traces = await localTraceTables(driver, base.scenario);
    const preset = SWEEP_PRESETS.find((p) => p.id === form.presetId);
    const short = shortName(param.label);
    const points = [
      ...values.map((v) => ({ value: v, label: `${short} = ${v}`, sets: [setFor(param.key, v)] })),
      ...(preset?.baselines ?? []).map((b) => ({ value: null, label: b.label, sets: b.sets })),
    ];
    void startSweep(
      {
        key: param.key,
        label: param.label,
        unit: param.unit,
        scale: form.scale,
        scenarioName: base.name,
        scenario: base.scenario,
        ...(base.policy !== undefined ? { policy: base.policy } : {}),
        ...(base.id !== undefined ? { scenarioId: base.id } : {}),
      },
      points,
      traces,
    );
  };

  const open = async (s: SweepRun, index: number) => {
    const point = s.points[index];
    const applied = applyPointOverrides({
      scenario: s.scenario,
      ...(s.policy !== undefined ? { policy: s.policy } : {}),
      sets: point.sets,
    });
    if (!applied.ok) {
      useUi.getState().setMessage(applied.message);
      return;
    }
    close();
    const original =
      s.scenarioId !== undefined
        ? { scenario: s.scenario, policy: extractPolicy(s.scenario) }
        : currentTexts().original;
    const failed = await openInPlayground(driver, applied.scenario, applied.policy, {
      ...(s.scenarioId !== undefined ? { id: s.scenarioId } : {}),
      original,
    });
    useUi
      .getState()
      .setMessage(
        failed ??
          `Opened the sweep's run "${point.label}" (${point.sets.join(', ')}): the Scenario tab shows it; Revert goes back.`,
      );
  };

  const pct = sweep && sweep.total > 0 ? Math.round((100 * sweep.done) / sweep.total) : 0;
  return (
    <Modal label="Sweep" heading="bar" className="feature-dialog wide" onClose={close}>
      <form
        className="sweep-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <label className="field-col">
          <span>Preset</span>
          <select value={form.presetId} onChange={(e) => pickPreset(e.target.value)} aria-label="Preset">
            <option value="">Sweep the playground's scenario</option>
            {SWEEP_PRESETS.map((p) => (
              <option key={p.id} value={p.id} disabled={!SCENARIOS.some((s) => s.id === p.scenario)}>
                {p.title}
              </option>
            ))}
          </select>
        </label>
        <label className="field-col grow">
          <span>Parameter</span>
          <select value={form.key} onChange={(e) => pickParam(e.target.value)} aria-label="Parameter">
            {params.map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
                {p.current !== null ? ` — now ${p.current}` : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="field-col num">
          <span>From</span>
          <input
            type="number"
            aria-label="From"
            value={form.from}
            step="any"
            onChange={(e) => setForm({ ...form, from: e.target.value })}
          />
        </label>
        <label className="field-col num">
          <span>To</span>
          <input
            type="number"
            aria-label="To"
            value={form.to}
            step="any"
            onChange={(e) => setForm({ ...form, to: e.target.value })}
          />
        </label>
        <label className="field-col num">
          <span>Points</span>
          <input
            type="number"
            aria-label="Points"
            min={1}
            max={MAX_SWEEP_POINTS}
            step={1}
            value={form.points}
            onChange={(e) => setForm({ ...form, points: e.target.value })}
          />
        </label>
        <fieldset className="field-col scale">
          <legend>Spacing</legend>
          {(['linear', 'log'] as const).map((sc) => (
            <label key={sc}>
              <input
                type="radio"
                name="sweep-scale"
                value={sc}
                checked={form.scale === sc}
                onChange={() => setForm({ ...form, scale: sc })}
              />{' '}
              {sc}
            </label>
          ))}
        </fieldset>
        <div className="sweep-actions">
          <button type="submit" className="primary" disabled={running || problem !== null}>
            Run sweep
          </button>
          <button type="button" onClick={cancelSweep} disabled={!running}>
            Cancel
          </button>
        </div>
      </form>
      <p className="muted sweep-note">
        {problem ??
          `On ${base.name}: ${values.length} point${values.length === 1 ? '' : 's'} (${valueTags(values).join(', ')})${
            SWEEP_PRESETS.find((p) => p.id === form.presetId)?.baselines.length
              ? ` plus ${SWEEP_PRESETS.find((p) => p.id === form.presetId)
                  ?.baselines.map((b) => b.label)
                  .join(' and ')} for comparison`
              : ''
          }, each run to the end in ${sweepConcurrency() === 1 ? 'a background worker' : `up to ${sweepConcurrency()} parallel workers`}.`}
      </p>
      {SWEEP_PRESETS.find((p) => p.id === form.presetId)?.note && (
        <p className="sweep-preset-note" role="note">
          {SWEEP_PRESETS.find((p) => p.id === form.presetId)?.note}
        </p>
      )}
      {sweep && (
        <div className="sweep-progress">
          <progress
            max={sweep.total}
            value={sweep.done}
            aria-label="Sweep progress"
            aria-valuetext={`${pct} %`}
          />
          <span aria-live="polite">
            {sweep.status === 'cancelled' ? 'Cancelled at ' : ''}
            {sweep.done} of {sweep.total} runs ({pct} %)
            {sweep.status === 'done' ? ' — done' : ''}
          </span>
        </div>
      )}
      {sweep && (
        <section className="sweep-results" aria-label="Sweep results">
          <p className="muted">
            {sweep.label} on <strong>{sweep.scenarioName}</strong>. Click a point to open that run in the
            playground.
          </p>
          {!running && sweep.scenarioName !== base.name && (
            // kept from an earlier sweep: say so, beside a form that now names another scenario
            <p className="sweep-stale" role="note">
              These are the last sweep's results, on <strong>{sweep.scenarioName}</strong>, not on{' '}
              <strong>{base.name}</strong>: Run sweep replaces them.
            </p>
          )}
          <SweepCharts sweep={sweep} onOpen={(i) => void open(sweep, i)} />
          {sweep.points.some((p) => p.error) && (
            <ul className="sweep-errors">
              {sweep.points
                .filter((p) => p.error)
                .map((p) => (
                  <li key={p.label}>
                    {p.label}: {p.error}
                  </li>
                ))}
            </ul>
          )}
        </section>
      )}
    </Modal>
  );
}
