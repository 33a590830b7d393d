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

/**
 * A window both narrow and very short (1280×720 at 300–400 % zoom): the scenario picker and the clock
 * go into the phone's Menu, after the Menu button (theme.css says the same).
 */
export const SHORT_MENU_QUERY = '(max-width: 599px) and (max-height: 340px)';

function matches(query: string): boolean {
  return typeof matchMedia === 'function' && matchMedia(query).matches;
}

export function isPhone(): boolean {
  return matches(PHONE_QUERY);
}

function onChange(query: string): (notify: () => void) => () => void {
  return (notify) => {
    if (typeof matchMedia !== 'function') return () => {};
    const mq = matchMedia(query);
    mq.addEventListener('change', notify);
    return () => mq.removeEventListener('change', notify);
  };
}

const onLayoutChange = onChange(PHONE_QUERY);
const onShortMenuChange = onChange(SHORT_MENU_QUERY);
const isShortMenu = () => matches(SHORT_MENU_QUERY);

/** Whether the page is in the phone layout now (below 900 px), following the window as it resizes. */
export function usePhoneLayout(): boolean {
  return useSyncExternalStore(onLayoutChange, isPhone, () => false);
}

/** Whether Menu holds the scenario picker and the clock now (SHORT_MENU_QUERY), following the window. */
export function useShortMenu(): boolean {
  return useSyncExternalStore(onShortMenuChange, isShortMenu, () => false);
}
