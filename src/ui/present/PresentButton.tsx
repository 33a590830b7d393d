import { keyOf } from '../keys';
import { togglePresenting, usePresent } from './store';

/** `Present` in the masthead: pressed while presentation mode is on (P toggles it too). */
export function PresentButton() {
  const presenting = usePresent((s) => s.presenting);
  return (
    <button
      type="button"
      className="present-button"
      aria-pressed={presenting}
      onClick={(e) => {
        if (e.detail > 0) e.currentTarget.blur();
        togglePresenting();
      }}
      title={
        presenting
          ? `Leave presentation mode (${keyOf('present')}): show the editor and the decision log again`
          : `Presentation mode (${keyOf('present')}): the lesson’s views fill the screen in large type`
      }
    >
      Present
    </button>
  );
}
