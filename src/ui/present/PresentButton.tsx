import { keyOf } from '../keys';
import { useCompare } from '../compare/store';
import { requestPresenting, usePresentingShown } from './toggle';

/** `Present` in the masthead: pressed while presentation mode is on (P toggles it too). */
export function PresentButton() {
  const comparing = useCompare((s) => s.active);
  const presenting = usePresentingShown();
  return (
    <button
      type="button"
      className="present-button"
      aria-pressed={presenting}
      onClick={(e) => {
        if (e.detail > 0) e.currentTarget.blur();
        requestPresenting();
      }}
      title={
        comparing
          ? 'Presentation mode shows one run: leave Compare first'
          : presenting
            ? `Leave presentation mode (${keyOf('present')}): show the editor and the decision log again`
            : `Presentation mode (${keyOf('present')}): the lesson’s views fill the screen in large type`
      }
    >
      Present
    </button>
  );
}
