/**
 * The Compare dialog: what run B changes. A scheduler or a routing picked from the lists, further
 * `key.path=value` overrides, or a full copy of the scenario to edit; an optional label. Starting
 * loads B next to A; problems with B's texts show in the dialog and A keeps running.
 */
import { useRef, useState } from 'react';
import { ROUTINGS, SCHEDULER_POLICIES } from '../../scenario';
import { useUi } from '../../state/store';
import type { Driver } from '../driver';
import { Modal, playButton } from '../Modal';
import { compareRunner } from './runner';
import { type CompareChoice, changesNothing, choiceOf, runLabel, runParts, settingsOf } from './settings';
import { useCompare } from './store';

export function CompareDialog({ driver }: { driver: Driver }) {
  const open = useCompare((s) => s.dialogOpen);
  if (!open) return null;
  return <CompareForm driver={driver} />;
}

function CompareForm({ driver }: { driver: Driver }) {
  const active = useCompare((s) => s.active);
  const kind = useUi((s) => s.kind);
  const aText = driver.loadedTexts()?.scenario ?? '';
  const [choice, setChoice] = useState<CompareChoice>(() => {
    const settings = useCompare.getState().active ? useCompare.getState().settings : null;
    return choiceOf(settings);
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // run B started or updated: the focus goes to Play (Space plays), not back to Compare or Edit B
  // (where Space would open this dialog again)
  const started = useRef(false);
  const close = () => useCompare.setState({ dialogOpen: false });
  const set = (patch: Partial<CompareChoice>) => setChoice((c) => ({ ...c, ...patch }));
  const parts = runParts(aText);
  const aScheduler = parts?.scheduler ?? 'fcfs';
  const aRouting = parts?.routing ?? 'round-robin';
  const cluster = kind !== 'arbitration';

  const startComparing = async () => {
    setBusy(true);
    setError(null);
    try {
      await compareRunner(driver).enter(settingsOf(choice));
      started.current = true;
      close();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      label="Compare"
      heading="bar"
      className="feature-dialog"
      onClose={close}
      focusOnClose={() => (started.current ? playButton() : null)}
    >
      <form
        className="compare-form"
        onSubmit={(e) => {
          e.preventDefault();
          void startComparing();
        }}
      >
        <p className="compare-intro">
          Run <strong>A</strong> is what the playground runs now ({runLabel(aText)}). Run <strong>B</strong>{' '}
          {cluster
            ? 'is the same scenario, seed and workload with your changes; both follow one timeline in simulated time.'
            : 'is the same script with your changes; both take the same steps.'}
        </p>
        {cluster && choice.copy === null && (
          <div className="compare-row">
            <label className="field-col">
              <span>B scheduler</span>
              <select
                aria-label="B scheduler"
                value={choice.scheduler}
                onChange={(e) => set({ scheduler: e.target.value })}
              >
                <option value="">as in A ({aScheduler})</option>
                {SCHEDULER_POLICIES.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
            <label className="field-col">
              <span>B routing</span>
              <select
                aria-label="B routing"
                value={choice.routing}
                onChange={(e) => set({ routing: e.target.value })}
              >
                <option value="">as in A ({aRouting})</option>
                {ROUTINGS.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
          </div>
        )}
        {choice.copy === null && (
          <label className="field-col">
            <span>{cluster ? 'More overrides for B' : 'Overrides for B'} (key.path=value, one per line)</span>
            <textarea
              aria-label="B overrides"
              rows={3}
              spellCheck={false}
              placeholder={
                cluster
                  ? 'scheduler.quantum=5000\ncluster.workers=4'
                  : 'variant=v1\npolicy.policy_classes[0].quantum=5'
              }
              value={choice.extra}
              onChange={(e) => set({ extra: e.target.value })}
            />
          </label>
        )}
        <label className="compare-check">
          <input
            type="checkbox"
            checked={choice.copy !== null}
            onChange={(e) => set({ copy: e.target.checked ? aText : null })}
          />
          Edit a full copy of the scenario instead
        </label>
        {choice.copy !== null && (
          <label className="field-col">
            <span>Scenario B</span>
            <textarea
              aria-label="Scenario B"
              rows={12}
              spellCheck={false}
              className="compare-copy"
              value={choice.copy}
              onChange={(e) => set({ copy: e.target.value })}
            />
          </label>
        )}
        <label className="field-col">
          <span>Label for B (optional)</span>
          <input
            type="text"
            aria-label="B label"
            maxLength={120}
            value={choice.label}
            placeholder="e.g. LPM, no fairness"
            onChange={(e) => set({ label: e.target.value })}
          />
        </label>
        {changesNothing(choice, aText) && (
          <p className="hint">
            B is the same as A so far: {cluster ? 'pick another scheduler or routing, add' : 'add'} an
            override, or edit a copy — otherwise both columns show the same run.
          </p>
        )}
        {error && (
          <pre className="compare-error error-text" role="alert">
            {error}
          </pre>
        )}
        <div className="dialog-actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Loading run B…' : active ? 'Update run B' : 'Start comparing'}
          </button>
          {active && (
            <button
              type="button"
              onClick={() => {
                compareRunner(driver).exit();
                close();
              }}
            >
              Exit compare
            </button>
          )}
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
