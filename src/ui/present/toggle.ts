/**
 * The Present button and the P key. Presentation mode shows one run's lesson; in Compare the page
 * shows two runs side by side, so the request is refused with a message that says what to do,
 * instead of being stored and springing on once Compare is left.
 */
import { useUi } from '../../state/store';
import { useCompare } from '../compare/store';
import { togglePresenting, usePresent } from './store';

export const PRESENT_IN_COMPARE =
  'Presentation mode shows one run: press “Exit compare” first, then Present (P).';

export function requestPresenting(): void {
  if (useCompare.getState().active) {
    useUi.getState().setMessage(PRESENT_IN_COMPARE);
    return;
  }
  togglePresenting();
}

/** Whether the page presents now: presentation mode is on and Compare is not. */
export function usePresentingShown(): boolean {
  const comparing = useCompare((s) => s.active);
  return usePresent((s) => s.presenting) && !comparing;
}
