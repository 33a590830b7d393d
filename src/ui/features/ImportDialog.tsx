/**
 * "Import a trace or BLIS spec…": a request trace (read locally, see trace-import.ts), or paste or pick a BLIS workload spec (and optionally a policy bundle); the
 * importer maps it to a Fairground scenario, lists what it mapped and what it could not, and the
 * scenario is loaded into the playground.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { quote, YAML_LIMITS } from '../../format/yaml';
import { importBlis } from '../../import/blis';
import type { Driver } from '../driver';
import { Modal } from '../Modal';
import { openInPlayground } from './playground';
import { useFeatures } from './store';
import {
  type CsvMapping,
  cancelTraceImport,
  choosableColumn,
  columnLabel,
  columnsCutText,
  guessColumns,
  importTraces,
  importWithColumns,
  useTraceImport,
} from './trace-import';

const ROLES: { key: 'timestamp' | 'input' | 'output' | 'client'; label: string; optional?: boolean }[] = [
  { key: 'timestamp', label: 'Arrival time' },
  { key: 'input', label: 'Prompt (input) tokens' },
  { key: 'output', label: 'Output tokens' },
  { key: 'client', label: 'Client', optional: true },
];

const TIME_UNITS: { value: CsvMapping['timeUnit']; label: string }[] = [
  { value: 's', label: 'seconds' },
  { value: 'ms', label: 'milliseconds' },
  { value: 'us', label: 'microseconds' },
  { value: 'datetime', label: 'date and time (UTC)' },
];

/**
 * A CSV trace whose header is no known layout: which column is which, as `trace.columns` and
 * `time_unit` say in YAML (the replay's scenario gets them written in, for the command line and links).
 */
function ColumnsForm({
  driver,
  name,
  header,
  columns,
  tried,
  problems,
}: {
  driver: Driver;
  name: string;
  header: string[];
  /** How many fields the header has (`header` holds at most the first 200). */
  columns: number;
  /** The columns of a read that failed, its hint and `problems` (the reader's lines). */
  tried: { mapping: CsvMapping; hint: string } | null;
  problems: string;
}) {
  const [m, setM] = useState<CsvMapping>(() => tried?.mapping ?? guessColumns(header));
  const missing = ROLES.filter((r) => !r.optional && m[r.key] === '').map((r) => r.label.toLowerCase());
  const cut = columnsCutText(columns, header.length);
  const cutId = useId();
  return (
    <form
      className="trace-columns"
      aria-label="CSV columns"
      onSubmit={(e) => {
        e.preventDefault();
        if (missing.length === 0) void importWithColumns(driver, m);
      }}
    >
      <p>
        <strong>{name}</strong> is a CSV whose header is not an Azure or BurstGPT layout. Which column is
        which?
      </p>
      {cut !== null && <p id={cutId}>{cut}</p>}
      {tried !== null && (
        <div className="trace-status error-text" role="status" aria-label="Trace status">
          <p>
            {name} could not be read with these columns. {tried.hint}
          </p>
          <pre>{problems}</pre>
        </div>
      )}
      <div className="trace-columns-grid">
        {ROLES.map((r) => (
          <label key={r.key}>
            <span>{r.label}</span>
            <select
              value={m[r.key]}
              aria-describedby={cut !== null ? cutId : undefined}
              onChange={(e) => setM({ ...m, [r.key]: e.target.value })}
            >
              <option value="">{r.optional ? '(none)' : '(choose a column)'}</option>
              {header.map((h, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two header fields may share a name
                <option key={i} value={h} disabled={!choosableColumn(h)}>
                  {columnLabel(h)}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label>
          <span>Times are in</span>
          <select
            value={m.timeUnit}
            onChange={(e) => setM({ ...m, timeUnit: e.target.value as CsvMapping['timeUnit'] })}
          >
            {TIME_UNITS.map((u) => (
              <option key={u.value} value={u.value}>
                {u.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="dialog-actions">
        <button type="submit" disabled={missing.length > 0} title="Read the file again with these columns">
          Read with these columns
        </button>
        {missing.length > 0 && <span className="muted">Choose the {missing.join(' and the ')} column.</span>}
      </div>
    </form>
  );
}

/** Pick a request trace: read locally in the worker with a progress bar and Cancel. */
function TraceSection({ driver }: { driver: Driver }) {
  const st = useTraceImport();
  const pct = st.total > 0 ? Math.min(100, Math.round((st.bytes / st.total) * 100)) : 0;
  return (
    <section className="trace-import" aria-label="Request trace">
      <h3>Replay a request trace</h3>
      <p className="muted">
        A Mooncake JSONL trace (timestamp ms, input_length, output_length, hash_ids) or an Azure LLM inference
        or BurstGPT CSV becomes the workload of the current cluster, router and policy (several files: one
        client each). A file the scenario names (its trace file, or a client's) loads that scenario instead.
        Files are read in this browser and never uploaded; large files stream. You can also drop traces
        anywhere on the page.
      </p>
      <input
        type="file"
        accept=".jsonl,.json,.csv,.txt,application/json,text/csv,text/plain"
        aria-label="Trace file"
        multiple
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          if (files.length > 0) void importTraces(driver, files);
          e.target.value = '';
        }}
      />
      {st.status === 'reading' && (
        <div className="trace-progress">
          <progress aria-label={`Reading ${st.name}`} max={100} value={pct} />
          <span>
            {(st.bytes / 1e6).toFixed(1)} of {(st.total / 1e6).toFixed(1)} MB
          </span>
          <button type="button" onClick={() => void cancelTraceImport(driver)}>
            Cancel
          </button>
        </div>
      )}
      {st.status === 'columns' && (
        <ColumnsForm
          key={st.name}
          driver={driver}
          name={st.name}
          header={st.header}
          columns={st.columns}
          tried={st.tried}
          problems={st.message}
        />
      )}
      {st.status !== 'idle' && st.status !== 'reading' && st.status !== 'columns' && (
        <div
          className={st.status === 'loaded' ? 'trace-status' : 'trace-status error-text'}
          role="status"
          aria-label="Trace status"
        >
          {st.status === 'cancelled' ? 'Cancelled: nothing was loaded.' : null}
          {st.status !== 'cancelled' && <pre>{st.message}</pre>}
        </div>
      )}
    </section>
  );
}

type Outcome = { ok: true; notes: string[]; name: string } | { ok: false; problems: string[] };

/**
 * Largest spec file read, in bytes: the YAML reader refuses more than YAML_LIMITS.maxBytes characters,
 * and a character is at most 4 bytes (the command line's cap on a YAML file, 4 MB, too). Checked
 * before reading: a 200 MB file read whole into the text box hung the tab for minutes (#15.2).
 */
const MAX_SPEC_FILE_BYTES = 4 * YAML_LIMITS.maxBytes;

function FileField({
  label,
  onText,
  onRefused,
}: {
  label: string;
  onText: (t: string, name: string) => void;
  onRefused: (message: string) => void;
}) {
  return (
    <input
      type="file"
      accept=".yaml,.yml,text/yaml,text/plain"
      aria-label={label}
      onChange={async (e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (!file) return;
        const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
        if (file.size > MAX_SPEC_FILE_BYTES) {
          onRefused(
            `${quote(file.name)}: not read: it is ${mb(file.size)}; the limit is ${mb(MAX_SPEC_FILE_BYTES)}`,
          );
          return;
        }
        try {
          onText(await file.text(), file.name);
        } catch (err) {
          onRefused(`${quote(file.name)}: cannot read it (${err instanceof Error ? err.name : 'error'})`);
        }
      }}
    />
  );
}

export function ImportDialog({ driver }: { driver: Driver }) {
  const close = () => useFeatures.setState({ panel: null });
  const [workload, setWorkload] = useState('');
  const [bundle, setBundle] = useState('');
  // what problems call each text: the picked file's name, else what it is (text typed or pasted)
  const [names, setNames] = useState({ workload: 'workload spec', bundle: 'policy bundle' });
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
            ? `${names.bundle}:${p.line}:${p.col}: ${p.message.slice('policy bundle:'.length).trim()}`
            : `${names.workload}:${p.line}:${p.col}: ${p.message}`,
        ),
      });
      return;
    }
    const failed = await openInPlayground(driver, res.scenarioYaml, undefined, { id: '' });
    if (failed) {
      setOutcome({ ok: false, problems: [`The imported scenario did not load: ${failed}`] });
      return;
    }
    const name = /^name:\s*(.+)$/m.exec(res.scenarioYaml)?.[1]?.replace(/^['"]|['"]$/g, '') ?? 'imported';
    setOutcome({ ok: true, notes: res.notes, name });
  };
  return (
    <Modal label="Import" heading="bar" className="feature-dialog" onClose={close}>
      <TraceSection driver={driver} />
      <h3>Import a BLIS workload spec</h3>
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
          onChange={(e) => {
            setWorkload(e.target.value);
            setNames((n) => ({ ...n, workload: 'workload spec' }));
          }}
          rows={9}
        />
      </label>
      <FileField
        label="Workload spec file"
        onRefused={(message) => setOutcome({ ok: false, problems: [message] })}
        onText={(t, name) => {
          setWorkload(t);
          setNames((n) => ({ ...n, workload: name }));
        }}
      />
      <label className="field-col">
        <span>Policy bundle (optional)</span>
        <textarea
          className="import-text"
          aria-label="BLIS policy bundle"
          value={bundle}
          spellCheck={false}
          onChange={(e) => {
            setBundle(e.target.value);
            setNames((n) => ({ ...n, bundle: 'policy bundle' }));
          }}
          rows={4}
        />
      </label>
      <FileField
        label="Policy bundle file"
        onRefused={(message) => setOutcome({ ok: false, problems: [message] })}
        onText={(t, name) => {
          setBundle(t);
          setNames((n) => ({ ...n, bundle: name }));
        }}
      />
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
    </Modal>
  );
}
