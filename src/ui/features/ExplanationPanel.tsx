/**
 * "Explain this decision": the decision selected in the log, told step by step in plain words.
 * Steps that name a policy class, a parameter or a client link to that line of the YAML.
 */
import { useMemo } from 'react';
import type { ExplanationStep } from '../../core/explain';
import { useEdits } from '../../state/edits';
import { useUi } from '../../state/store';
import { explainSessionDecision } from './explain-source';
import { requestReveal } from './reveal';
import { findRef, type YamlSpot } from './yaml-lines';

function refWords(step: ExplanationStep): string {
  const r = step.ref;
  if (!r) return '';
  return r.kind === 'class' ? `class ${r.name}` : r.kind === 'client' ? `client ${r.name}` : r.name;
}

function StepLink({ step, spot }: { step: ExplanationStep; spot: YamlSpot | null }) {
  if (!spot) return null;
  return (
    <button
      type="button"
      className="small yaml-link"
      onClick={() => requestReveal(spot)}
      aria-label={`Show ${refWords(step)} in the ${spot.which} editor (line ${spot.line})`}
      title={`Show ${refWords(step)} in the ${spot.which} YAML`}
    >
      {spot.which} line {spot.line}
    </button>
  );
}

export function ExplanationPanel() {
  const selected = useUi((s) => s.selected);
  const decision = useUi((s) =>
    s.selected === null ? null : (s.decisions.find((d) => d.seq === s.selected) ?? null),
  );
  const kind = useUi((s) => s.kind);
  const texts = useEdits((s) => s.texts);
  // The snapshot only lends the quanta; they do not change within a run.
  // biome-ignore lint/correctness/useExhaustiveDependencies: kind and texts identify the run
  const steps = useMemo(() => (decision ? explainSessionDecision(decision) : []), [decision, kind, texts]);
  const spots = useMemo(() => steps.map((s) => (s.ref ? findRef(s.ref, texts) : null)), [steps, texts]);
  if (selected === null || !decision) return null;
  // The summary stands under the heading; a step that only says it again (the simulator's own
  // records open with it) is left out of the list.
  const summary = decision.summary.trim();
  const numbered = steps
    .map((s, i) => ({ s, spot: spots[i] }))
    .filter((x) => !x.s.final && !(x.s.text.trim() === summary && !x.s.ref));
  const finals = steps.map((s, i) => ({ s, spot: spots[i] })).filter((x) => x.s.final);
  return (
    <section className="panel explanation-panel" aria-label="Explanation">
      <div className="panel-head">
        <h2>Why decision #{decision.seq + 1}</h2>
      </div>
      <p className="explanation-summary">{decision.summary}</p>
      {numbered.length > 0 && (
        <ol className="explanation-steps">
          {numbered.map(({ s, spot }, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the steps are a fixed list per decision
            <li key={i}>
              {s.text} <StepLink step={s} spot={spot} />
            </li>
          ))}
        </ol>
      )}
      {finals.map(({ s, spot }, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: as above
        <p key={i} className="explanation-result">
          {s.text} <StepLink step={s} spot={spot} />
        </p>
      ))}
    </section>
  );
}
