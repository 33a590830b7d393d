/**
 * Presentation mode: the lesson's visualisation fills the screen in large type, editor and log hidden,
 * transport and the step account kept. Toggled by the `Present` button, the `P` key, or `?present=1`
 * in the page's address (so a lecturer can open a link straight into it).
 */
import { create } from 'zustand';

export interface PresentState {
  presenting: boolean;
}

function fromAddress(): boolean {
  try {
    const v = new URLSearchParams(globalThis.location?.search ?? '').get('present');
    return v === '1' || v === 'true';
  } catch {
    return false;
  }
}

export const usePresent = create<PresentState>(() => ({ presenting: fromAddress() }));

/** Enter or leave presentation mode, and say so in the address (`?present=1`) without a history entry. */
export function setPresenting(on: boolean): void {
  usePresent.setState({ presenting: on });
  try {
    const url = new URL(location.href);
    if (on) url.searchParams.set('present', '1');
    else url.searchParams.delete('present');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  } catch {
    /* no address bar (tests in Node) */
  }
}

export function togglePresenting(): void {
  setPresenting(!usePresent.getState().presenting);
}
