/**
 * The YAML editors: a tab for the policy and one for the scenario. Each edit is kept (and persisted
 * per scenario) at once; after ~400 ms without typing it is applied and the run restarts when the
 * text is valid. Invalid text stays in the editor with markers at the reported line and column.
 */
import { useEffect, useRef, useState } from 'react';
import { DownloadTexts } from '../DownloadTexts';
import { readDrr } from '../views/read';
import { type Problem, problemText } from '../../format/yaml';
import { useEdits } from '../../state/edits';
import { usePrefs } from '../../state/prefs';
import { type EditorTab, useUi } from '../../state/store';
import type { Driver } from '../driver';
import { FoldHeading, useFoldProps } from '../phone/Fold';
import { registerEditor } from './registry';
import { createTextareaEditor } from './textarea-editor';
import { docFileName, docKind, type EditorHandle, type EditorWhich } from './types';

/**
 * When the browser cannot keep the text (too large even for IndexedDB, or storage blocked), say so
 * right above the editor and offer the text as a file: it would be gone after a reload.
 */
function SaveProblemNote() {
  const problem = useEdits((s) => s.saveProblem);
  if (!problem) return null;
  const mb = (problem.chars / 1e6).toFixed(1);
  return (
    <div className="banner error" role="alert">
      <span>
        Your text ({mb} million characters) could not be saved in this browser ({problem.message}); it will be
        lost on reload. <DownloadTexts />
      </span>
    </div>
  );
}

function wantPlain(): boolean {
  try {
    return new URLSearchParams(location.search).get('editor') === 'plain';
  } catch {
    return false;
  }
}

/**
 * Monaco is big: fetch it only once the first run is on screen and the page is idle, so it never
 * competes with the scenario that should start playing.
 */
function afterFirstRun(): Promise<void> {
  return new Promise((resolve) => {
    const idle = () =>
      'requestIdleCallback' in window
        ? requestIdleCallback(() => resolve(), { timeout: 1500 })
        : setTimeout(resolve, 200);
    if (useUi.getState().kind !== null) {
      idle();
      return;
    }
    const unsub = useUi.subscribe((s) => {
      if (s.kind === null) return;
      unsub();
      idle();
    });
  });
}

type ReleaseLabel = import('../../policy/release-range').ReleaseLabel;

/**
 * Which Dynamo releases accept the policy text: a small label under the policy editor (the policy
 * format loads lazily, like the editor).
 */
function ReleaseRange({ text, driver }: { text: string; driver: Driver }) {
  const [label, setLabel] = useState<ReleaseLabel | null>(null);
  // the release line the loaded run's queue follows, and whether its text names it
  const modelled = useUi((s) => readDrr(s.snapshot)?.release ?? null);
  const script = useUi((s) => s.kind === 'arbitration');
  const [releaseSet, setReleaseSet] = useState(() => driver.releaseSet());
  useEffect(() => {
    setReleaseSet(driver.releaseSet());
    return driver.onLoad(() => setReleaseSet(driver.releaseSet()));
  }, [driver]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      import('../../policy/release-range')
        .then((m) => {
          if (live) setLabel(m.policyReleaseLabel(text));
        })
        .catch(() => {
          if (live) setLabel(null);
        });
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  if (!label) return null;
  return (
    <div className="editor-release" data-valid={label.valid} data-shorthand={label.shorthand === true}>
      <p
        role="note"
        aria-label="Dynamo releases"
        aria-live="polite"
        title="Which released Dynamo versions accept this policy file"
      >
        {label.text}
      </p>
      {modelled !== null && <RunRelease release={modelled} script={script} set={releaseSet} />}
      {label.notes.length > 0 && (
        <ul aria-label="Not simulated in the playground">
          {label.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Which Dynamo release the run's queue follows, and what decides it: a scenario's
 * `router.dynamo_release` or a DRR sandbox script's `release:`, set in the text or left to its default
 * (a scenario: the newest release that accepts the policy; a script: v1.6).
 */
export function runReleaseWords(
  release: string,
  script: boolean,
  set: boolean,
): { text: string; title: string } {
  if (script)
    return set
      ? {
          text: `This script runs Dynamo ${release}'s queue, as its release: key says.`,
          title: `Set by the script's release: key (${release}); change it there to run another release`,
        }
      : {
          text: `This script runs Dynamo ${release}'s queue, the default: it has no release: key.`,
          title:
            'A script without a release: key runs v1.6; add release: (e.g. release: v1.5) to run another',
        };
  return set
    ? {
        text: `This run follows Dynamo ${release}'s queue, as the scenario's router.dynamo_release says.`,
        title: `Set by router.dynamo_release in the scenario (${release}); change it there to model another release`,
      }
    : {
        text: `This run follows Dynamo ${release}'s queue, the default: the scenario sets no router.dynamo_release.`,
        title:
          'Without router.dynamo_release a scenario models the newest release that accepts its policy; add it under router: (e.g. dynamo_release: v1.5) to model another',
      };
}

function RunRelease({ release, script, set }: { release: string; script: boolean; set: boolean }) {
  const words = runReleaseWords(release, script, set);
  return (
    <p className="editor-release-run" title={words.title}>
      {words.text}
    </p>
  );
}

/**
 * Problems listed one by one; past them the list says how many more there are (the editor still
 * marks every one). 45,000 problems (a 1 MB file of 15,000 bad scripted requests) rendered as 45,000
 * buttons blocked the page for ~2.5 s after every edit.
 */
const PROBLEMS_LISTED = 500;

/**
 * Every problem of the text, not just the first: a count that folds the list away (the editor gets
 * the room back) and one line per problem that takes the cursor to its place, the first
 * PROBLEMS_LISTED of them. Long lists scroll in their own box, so the editor above keeps a usable
 * height at 1280×720.
 */
function ProblemList({
  problems,
  which,
  file,
  reveal,
}: {
  problems: readonly Problem[];
  which: EditorWhich;
  /** The name the text goes by (`policy.yaml`): each problem reads `file:line:col: message`. */
  file: string;
  reveal: (line: number, col: number) => void;
}) {
  const [open, setOpen] = useState(true);
  const n = problems.length;
  const listId = `problems-${which}`;
  return (
    <div className="editor-problems" role="status">
      <p className="editor-status error">
        <button
          type="button"
          className="problems-toggle"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
          title={open ? 'Hide the list of problems' : 'Show every problem'}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {n} problem{n === 1 ? '' : 's'}
        </button>{' '}
        — the run keeps the last valid version.
      </p>
      <ol
        id={listId}
        className="problem-list"
        aria-label={`${which === 'policy' ? 'Policy' : 'Scenario'} problems`}
        hidden={!open}
      >
        {problems.slice(0, PROBLEMS_LISTED).map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two problems may share a place and a message
          <li key={i} className="problem-item">
            <button
              type="button"
              className="problem"
              onClick={() => reveal(p.line, p.col)}
              title="Show this place in the editor"
            >
              <span className="problem-at">
                {file}:{p.line}:{p.col}:
              </span>{' '}
              {problemText(p)}
            </button>
          </li>
        ))}
        {n > PROBLEMS_LISTED && (
          <li className="problem-item problem-more">
            … and {(n - PROBLEMS_LISTED).toLocaleString('en-US')} more (the editor marks them all; fix these
            first)
          </li>
        )}
      </ol>
    </div>
  );
}

function YamlEditor({
  which,
  label,
  driver,
  hidden,
}: {
  which: EditorWhich;
  label: string;
  driver: Driver;
  hidden: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<EditorHandle | null>(null);
  const [mode, setMode] = useState<'loading' | 'monaco' | 'textarea'>('loading');
  const revision = useEdits((s) => s.revision);
  const problems = useUi((s) => s.problems[which]);
  const theme = usePrefs((s) => s.theme);
  const empty = useEdits((s) => s.texts[which].trim() === '');
  const policyText = useEdits((s) => (which === 'policy' ? s.texts.policy : ''));
  // the editor's kind, not its text (a string compare per edit, no re-render while typing in place)
  const kind = useEdits((s) => docKind(which, s.texts[which]));

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let disposed = false;
    const opts = {
      which,
      label,
      value: useEdits.getState().texts[which],
      theme: usePrefs.getState().theme,
      onChange: (text: string) => driver.typed(which, text),
    };
    const mount = (h: EditorHandle) => {
      handle.current = h;
      registerEditor(which, h);
      h.setProblems(useUi.getState().problems[which]);
      setMode(h.kind);
    };
    const fallback = () => {
      if (!disposed) mount(createTextareaEditor(el, { ...opts, value: useEdits.getState().texts[which] }));
    };
    if (wantPlain()) fallback();
    else
      afterFirstRun()
        .then(() => import('./monaco-editor'))
        .then((m) => {
          if (disposed) return;
          try {
            mount(m.createEditor(el, { ...opts, value: useEdits.getState().texts[which] }));
          } catch {
            fallback();
          }
        })
        .catch(fallback);
    return () => {
      disposed = true;
      handle.current?.dispose();
      handle.current = null;
      registerEditor(which, null);
    };
  }, [which, label, driver]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the revision signals texts replaced from outside
  useEffect(() => {
    handle.current?.setValue(useEdits.getState().texts[which]);
  }, [revision, which, mode]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `mode` changes once the editor is mounted
  useEffect(() => {
    handle.current?.setProblems(problems);
  }, [problems, mode]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `mode` changes once the editor is mounted
  useEffect(() => {
    handle.current?.setTheme(theme);
  }, [theme, mode]);

  return (
    <section
      className="editor-region"
      aria-label={label}
      id={`editor-${which}`}
      hidden={hidden}
      data-editor-mode={mode}
    >
      {mode === 'loading' && <p className="empty">Loading the editor…</p>}
      {empty && which === 'policy' && (
        <p className="editor-hint">
          No router policy in this scenario. Paste a Dynamo router policy here (policy_classes, buckets,
          models) to turn on policy-class queues; it overrides the scenario’s <code>router.policy</code>.
        </p>
      )}
      <div className="editor-host" ref={host} />
      {which === 'policy' && <ReleaseRange text={policyText} driver={driver} />}
      {problems.length > 0 && (
        <ProblemList
          problems={problems}
          which={which}
          file={docFileName(kind)}
          reveal={(line, col) => handle.current?.reveal(line, col)}
        />
      )}
    </section>
  );
}

const TABS: { id: EditorTab; title: string; label: string }[] = [
  { id: 'policy', title: 'Policy', label: 'Policy editor' },
  { id: 'scenario', title: 'Scenario', label: 'Scenario editor' },
];

export function EditorPanel({ driver }: { driver: Driver }) {
  const tab = useUi((s) => s.editorTab);
  const policyProblems = useUi((s) => s.problems.policy.length);
  const scenarioProblems = useUi((s) => s.problems.scenario.length);
  const edited = useEdits(
    (s) => s.texts.scenario !== s.original.scenario || s.texts.policy !== s.original.policy,
  );
  const count = { policy: policyProblems, scenario: scenarioProblems };
  const fold = useFoldProps('editor');
  const problems = policyProblems + scenarioProblems;
  return (
    <section className="panel editors" aria-labelledby="editors-title" {...fold}>
      <div className="panel-head">
        <FoldHeading
          fold="editor"
          id="editors-title"
          title="YAML"
          count={
            problems > 0
              ? `policy & scenario, ${problems} problem${problems === 1 ? '' : 's'}`
              : `policy & scenario${edited ? ', edited' : ''}`
          }
        />
        <div role="tablist" aria-label="Editors" className="tabs">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`editor-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              className={count[t.id] ? 'has-problems' : undefined}
              onClick={() => useUi.setState({ editorTab: t.id })}
              onKeyDown={(e) => {
                if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                  const next = tab === 'policy' ? 'scenario' : 'policy';
                  useUi.setState({ editorTab: next });
                  document.getElementById(`tab-${next}`)?.focus();
                }
              }}
              title={
                t.id === 'policy'
                  ? 'The router policy (overrides the scenario’s own)'
                  : 'The whole scenario file'
              }
            >
              {t.title}
              {count[t.id] ? ` (${count[t.id]})` : ''}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="small revert"
          disabled={!edited}
          onClick={() => void driver.revert()}
          title="Throw away your edits and go back to the shipped scenario"
        >
          Revert
        </button>
      </div>
      <SaveProblemNote />
      {TABS.map((t) => (
        <YamlEditor key={t.id} which={t.id} label={t.label} driver={driver} hidden={tab !== t.id} />
      ))}
    </section>
  );
}
