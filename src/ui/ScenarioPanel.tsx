import { useState } from 'react';
import { useUi } from '../state/store';
import { glossedAtEnd } from './Glossary';
import { Markdownish } from './Markdownish';
import { Modal } from './Modal';
import { FoldHeading, useFoldProps } from './phone/Fold';

export function ScenarioPanel() {
  const name = useUi((s) => s.scenarioName);
  const description = useUi((s) => s.description);
  const kind = useUi((s) => s.kind);
  const fold = useFoldProps('scenario');
  // the panel is a third of the column: a long lesson text reads better in a window of its own
  const [reading, setReading] = useState(false);
  return (
    <section className="panel scenario-panel" aria-labelledby="scenario-title" {...fold}>
      <FoldHeading
        fold="scenario"
        id="scenario-title"
        title={kind === 'arbitration' ? 'DRR sandbox' : 'Scenario'}
        count={name || undefined}
      />
      <div className="scenario-name-row">
        <h3 className="scenario-name">
          {name
            ? glossedAtEnd(name, [
                ['S1', 's1-s2'],
                ['S2', 's1-s2'],
              ])
            : 'No scenario loaded'}
        </h3>
        {description && (
          <button
            type="button"
            className="small"
            title="Read the whole description in a large window"
            onClick={() => setReading(true)}
          >
            Read all
          </button>
        )}
      </div>
      {description ? (
        <Markdownish text={description} />
      ) : (
        <p className="empty">
          {name
            ? 'This scenario has no description. Add a `description:` in the Scenario tab.'
            : 'Pick a scenario above, or paste one into the Scenario editor.'}
        </p>
      )}
      {reading && description && (
        <Modal
          label={`About this scenario: ${name || 'unnamed'}`}
          heading="bar"
          className="feature-dialog wide scenario-read"
          onClose={() => setReading(false)}
        >
          <Markdownish text={description} />
        </Modal>
      )}
    </section>
  );
}
