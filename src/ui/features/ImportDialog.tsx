/**
 * "Import BLIS spec…": paste or pick a BLIS workload spec (and optionally a policy bundle); the
 * importer maps it to a Fairground scenario, lists what it mapped and what it could not, and the
 * scenario is loaded into the playground.
 */
import { useEffect, useRef, useState } from 'react';
import { importBlis } from '../../import/blis';
import type { Driver } from '../driver';
import { FeatureDialog } from './FeatureDialog';
import { openInPlayground } from './playground';
import { useFeatures } from './store';

type Outcome = { ok: true; notes: string[]; name: string } | { ok: false; problems: string[] };

function FileField({ label, onText }: { label: string; onText: (t: string) => void }) {
  return (
    <input
      type="file"
      accept=".yaml,.yml,text/yaml,text/plain"
      aria-label={label}
      onChange={async (e) => {
        const file = e.target.files?.[0];
        if (file) onText(await file.text());
      }}
    />
  );
}

export function ImportDialog({ driver }: { driver: Driver }) {
  const close = () => useFeatures.setState({ panel: null });
  const [workload, setWorkload] = useState('');
  const [bundle, setBundle] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const notesRef = useRef<HTMLElement>(null);
  // Bring the notes into view once they change (they sit below the text boxes).
  useEffect(() => {
    if (outcome) notesRef.current?.scrollIntoView({ block: 'nearest' });
  }, [outcome]);
  const run = async () => {
    const res = importBlis(workload, bundle.trim() === '' ? undefined : bundle);
    if (!res.ok) {
      setOutcome({
        ok: false,
        problems: res.problems.map((p) =>
          p.message.startsWith('policy bundle:')
            ? `policy bundle ${p.line}:${p.col}: ${p.message.slice('policy bundle:'.length).trim()}`
            : `workload spec ${p.line}:${p.col}: ${p.message}`,
        ),
      });
      return;
    }
    const failed = await openInPlayground(driver, res.scenarioYaml, undefined);
    if (failed) {
      setOutcome({ ok: false, problems: [`The imported scenario did not load: ${failed}`] });
      return;
    }
    const name = /^name:\s*(.+)$/m.exec(res.scenarioYaml)?.[1]?.replace(/^['"]|['"]$/g, '') ?? 'imported';
    setOutcome({ ok: true, notes: res.notes, name });
  };
  return (
    <FeatureDialog label="Import BLIS spec" onClose={close}>
      <p className="muted">
        A BLIS workload spec (version 2) becomes a Fairground scenario; a policy bundle adds its scheduler and
        routing. What cannot be mapped exactly is listed below after the import.
      </p>
      <label className="field-col">
        <span>Workload spec (YAML)</span>
        <textarea
          className="import-text"
          aria-label="BLIS workload spec"
          value={workload}
          spellCheck={false}
          onChange={(e) => setWorkload(e.target.value)}
          rows={9}
        />
      </label>
      <FileField label="Workload spec file" onText={setWorkload} />
      <label className="field-col">
        <span>Policy bundle (optional)</span>
        <textarea
          className="import-text"
          aria-label="BLIS policy bundle"
          value={bundle}
          spellCheck={false}
          onChange={(e) => setBundle(e.target.value)}
          rows={4}
        />
      </label>
      <FileField label="Policy bundle file" onText={setBundle} />
      <div className="dialog-actions">
        <button
          type="button"
          className="primary"
          disabled={workload.trim() === ''}
          onClick={() => void run()}
        >
          Import and load
        </button>
      </div>
      {outcome && (
        <section className="import-notes" aria-label="Import notes" ref={notesRef}>
          {outcome.ok ? (
            <>
              <p>
                Loaded <strong>{outcome.name}</strong> into the playground (the Scenario tab shows the file).
                {outcome.notes.length > 0 ? ' Notes on the mapping:' : ' Everything mapped directly.'}
              </p>
              <ul>
                {outcome.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <p className="error-text">Nothing was loaded:</p>
              <ul>
                {outcome.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </FeatureDialog>
  );
}
