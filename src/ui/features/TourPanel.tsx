/**
 * The guided tours: pick a lesson, then read it step by step beside the live views while the
 * simulation moves to the moment each step talks about. Next / Back; Escape closes (keys.ts).
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Driver } from '../driver';
import { Markdownish } from '../Markdownish';
import { useFeatures } from './store';
import { revealStepView, unpinViews } from './tour-reveal';
import { goToMoment } from './tour-runner';
import { TOURS } from './tours';

export function TourPanel({ driver }: { driver: Driver }) {
  const tour = useFeatures((s) => s.tour);
  const busy = useFeatures((s) => s.tourBusy);
  const [error, setError] = useState<string | null>(null);
  const current = tour ? TOURS.find((t) => t.id === tour.id) : undefined;
  const close = () => useFeatures.setState({ panel: null, tour: null });
  // a step may pin its view's heading (tour-reveal.ts): not outside a tour
  useEffect(() => {
    if (!tour) unpinViews();
  }, [tour]);
  useEffect(() => unpinViews, []);

  const go = async (id: string, step: number) => {
    const t = TOURS.find((x) => x.id === id);
    if (!t) return;
    const k = Math.max(0, Math.min(t.steps.length - 1, step));
    useFeatures.setState({ tour: { id, step: k }, tourBusy: true });
    setError(null);
    try {
      const failed = await goToMoment(driver, t.steps[k].at);
      if (failed) setError(failed);
      else revealStepView(t.steps[k].text);
    } finally {
      useFeatures.setState({ tourBusy: false });
    }
  };

  // On <body>, so no scrolling column clips it.
  return createPortal(
    <aside className="tour-panel" role="dialog" aria-modal="false" aria-label="Tour">
      <div className="feature-dialog-head">
        <h2 title={current?.title}>{current ? current.title : 'Guided tours'}</h2>
        <button type="button" className="small" onClick={close} aria-label="Close tour">
          ×
        </button>
      </div>
      {!current || !tour ? (
        <ul className="tour-list">
          {TOURS.map((t) => (
            <li key={t.id}>
              <button type="button" onClick={() => void go(t.id, 0)}>
                {t.title}
              </button>
              <span className="muted"> {t.summary}</span>
            </li>
          ))}
        </ul>
      ) : (
        <>
          {/* on a short screen the two share a line (features.css), leaving the step's text room */}
          <div className="tour-step-head">
            <p className="tour-progress" aria-live="polite">
              Step {tour.step + 1} of {current.steps.length}
              {busy ? ' — moving the simulation…' : ''}
            </p>
            <h3 className="tour-step-title">{current.steps[tour.step].title}</h3>
          </div>
          {/* the step's text scrolls inside the card where the screen is short (features.css), so
              the card stays small and its buttons in sight; focusable so the keyboard scrolls it */}
          <section
            className="tour-text"
            aria-label="Step text"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region the keyboard must reach
            tabIndex={0}
          >
            <Markdownish text={current.steps[tour.step].text} />
          </section>
          {error && <p className="error-text">{error}</p>}
          <div className="dialog-actions">
            <button type="button" onClick={() => useFeatures.setState({ tour: null })}>
              All tours
            </button>
            <span className="toolbar-gap" />
            <button
              type="button"
              disabled={busy || tour.step === 0}
              onClick={() => void go(tour.id, tour.step - 1)}
            >
              Back
            </button>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() =>
                tour.step + 1 < current.steps.length ? void go(tour.id, tour.step + 1) : close()
              }
            >
              {tour.step + 1 < current.steps.length ? 'Next' : 'Finish'}
            </button>
          </div>
        </>
      )}
    </aside>,
    document.body,
  );
}
