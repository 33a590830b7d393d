/**
 * The phone layout's own state (below 900 px): the header's menu and which of the long panels are
 * unfolded. On wider screens none of it shows (the CSS keeps every panel open there).
 */
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';

/** The panels a phone folds to one line: the decision log, the scenario's text, the YAML editors. */
export type Fold = 'log' | 'scenario' | 'editor';

interface PhoneState {
  menu: boolean;
  open: Record<Fold, boolean>;
}

export const usePhone = create<PhoneState>(() => ({
  menu: false,
  open: { log: false, scenario: false, editor: false },
}));

export function setMenu(menu: boolean): void {
  usePhone.setState({ menu });
}

export function setFold(fold: Fold, open: boolean): void {
  usePhone.setState((s) => ({ open: { ...s.open, [fold]: open } }));
}

/** The width below which the page is one column with a compact header (theme.css says the same). */
export const PHONE_QUERY = '(max-width: 899px)';

export function isPhone(): boolean {
  return typeof matchMedia === 'function' && matchMedia(PHONE_QUERY).matches;
}

function onLayoutChange(notify: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia(PHONE_QUERY);
  mq.addEventListener('change', notify);
  return () => mq.removeEventListener('change', notify);
}

/** Whether the page is in the phone layout now (below 900 px), following the window as it resizes. */
export function usePhoneLayout(): boolean {
  return useSyncExternalStore(onLayoutChange, isPhone, () => false);
}
