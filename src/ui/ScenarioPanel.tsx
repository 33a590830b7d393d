import { useUi } from '../state/store';
import { glossed } from './Glossary';
import { Markdownish } from './Markdownish';
import { FoldHeading, useFoldProps } from './phone/Fold';

export function ScenarioPanel() {
  const name = useUi((s) => s.scenarioName);
  const description = useUi((s) => s.description);
  const kind = useUi((s) => s.kind);
  const fold = useFoldProps('scenario');
  return (
    <section className="panel scenario-panel" aria-labelledby="scenario-title" {...fold}>
      <FoldHeading
        fold="scenario"
        id="scenario-title"
        title={kind === 'arbitration' ? 'DRR sandbox' : 'Scenario'}
        count={name || undefined}
      />
      <h3 className="scenario-name">
        {name
          ? glossed(name, [
              ['S1', 's1-s2'],
              ['S2', 's1-s2'],
            ])
          : 'No scenario loaded'}
      </h3>
      {description ? (
        <Markdownish text={description} />
      ) : (
        <p className="empty">
          {name
            ? 'This scenario has no description. Add a `description:` in the Scenario tab.'
            : 'Pick a scenario above, or paste one into the Scenario editor.'}
        </p>
      )}
    </section>
  );
}
