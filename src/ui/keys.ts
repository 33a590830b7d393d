/**
 * The page's keyboard shortcuts, in one place: each action has a name, its keys and what it does. One
 * `keydown` listener on the window runs them (`installKeys`), the help overlay lists them
 * (`KEY_HELP`), and the controls name their key from here (`keyOf`).
 *
 * When a key is the page's and when it belongs to what has the focus:
 * - nothing fires while a modal dialog is open (the browser closes it on Escape), while typing in a
 *   text field, a list box or the editor, or with Ctrl, Alt or Meta held;
 * - Space is left to a focused button, checkbox or tab (it presses them);
 * - ← and → are left to a focused control that moves with them (a slider such as the timeline, a
 *   tab, a list box), but letters (R, P, ?) still fire there: a focused slider does not swallow them;
 *   a drop-down (<select>) keeps Space, ↑ / ↓ and the letters, and gives ← / → and Escape (while its
 *   list is closed) to the page.
 * - The Scenario picker hands the focus to Play after Enter, Escape, ← or → with its list closed
 *   (`handsKeysBack`): a scenario picked with ↓ keeps the focus on the picker, where the letters pick
 *   again (P chose 'Paper: …' and replaced the run); once the page's keys are in use, they all are.
 */
import { compareRunner } from './compare/runner';
import { useCompare } from './compare/store';
import type { Driver } from './driver';
import { useFeatures } from './features/store';
import { refocusIfLost } from './Modal';
import { setMenu, usePhone } from './phone/store';
import { setPresenting, usePresent } from './present/store';
import { requestPresenting } from './present/toggle';
import { useUi } from '../state/store';

export type KeyActionId = 'play-pause' | 'step' | 'step-back' | 'reset' | 'present' | 'help' | 'leave';

/** Which focused controls a key gives way to (see the header). */
type KeyClass = 'space' | 'arrow' | 'letter' | 'escape';

export interface KeyAction {
  id: KeyActionId;
  /** `KeyboardEvent.key` values that run it. */
  keys: readonly string[];
  /** The key as the help and the controls' titles write it. */
  label: string;
  /** What it does, in the help's words. */
  does: string;
  klass: KeyClass;
  /** Does it; false when there was nothing to do (the key then goes on as if unbound). */
  run(driver: Driver): boolean | undefined;
}

/**
 * Escape outside dialogs: fold the phone's menu, else close the tour, else leave presentation mode,
 * else leave compare mode.
 */
function leave(driver: Driver): boolean {
  if (usePhone.getState().menu) {
    setMenu(false);
    // the focus was on one of the menu's controls, now hidden: it fell to the body, and the next Tab
    // started again from the page's top
    requestAnimationFrame(refocusIfLost);
    return true;
  }
  if (useFeatures.getState().panel === 'tour') {
    useFeatures.setState({ panel: null, tour: null });
    return true;
  }
  if (usePresent.getState().presenting) {
    setPresenting(false);
    return true;
  }
  if (useCompare.getState().active) {
    compareRunner(driver).exit();
    return true;
  }
  return false;
}

export const KEY_ACTIONS: readonly KeyAction[] = [
  {
    id: 'play-pause',
    keys: [' '],
    label: 'Space',
    does: 'Play / Pause',
    klass: 'space',
    run: (d) => {
      d.toggle();
      return true;
    },
  },
  {
    id: 'step',
    keys: ['ArrowRight'],
    label: '→',
    does: 'Step one decision',
    klass: 'arrow',
    run: (d) => {
      void d.step(1);
      return true;
    },
  },
  {
    id: 'step-back',
    keys: ['ArrowLeft'],
    label: '←',
    does: 'Step one decision back (replays from the nearest restore point)',
    klass: 'arrow',
    run: (d) => {
      void d.stepBack();
      return true;
    },
  },
  {
    id: 'reset',
    keys: ['r', 'R'],
    label: 'R',
    does: 'Reset to t = 0',
    klass: 'letter',
    run: (d) => {
      void d.reset();
      return true;
    },
  },
  {
    id: 'present',
    keys: ['p', 'P'],
    label: 'P',
    does: 'Presentation mode: the lesson’s views fill the screen in large type (Esc leaves it)',
    klass: 'letter',
    run: () => {
      requestPresenting();
      return true;
    },
  },
  {
    id: 'help',
    keys: ['?'],
    label: '?',
    does: 'Show this help',
    klass: 'letter',
    run: () => {
      useUi.setState({ helpOpen: true });
      return true;
    },
  },
  {
    id: 'leave',
    keys: ['Escape'],
    label: 'Esc',
    does: 'Close a dialog, the menu or the tour; leave presentation or compare mode',
    klass: 'escape',
    run: leave,
  },
];

/** Keys that the focused element handles itself (listed in the help, not run by the registry). */
const LOCAL_HELP: readonly [string, string][] = [
  [
    'letters, ↑ / ↓',
    'With the Scenario list focused: pick a scenario (the list keeps the focus); Enter, Esc, ← or → then gives the keys back to the page',
  ],
  ['↑ / ↓', 'In the decision log: select a decision (pauses and highlights it)'],
  ['← / → on a chart', 'With a view focused (Tab): move the playhead one decision'],
];

/** The help overlay's rows: key, what it does. */
export const KEY_HELP: readonly [string, string][] = [
  ...KEY_ACTIONS.map((a): [string, string] => [a.label, a.does]),
  ...LOCAL_HELP,
];

/** The key of an action as the controls' titles write it ("Space", "→", "R"). */
export function keyOf(id: KeyActionId): string {
  return KEY_ACTIONS.find((a) => a.id === id)?.label ?? '';
}

const NOT_TEXT_INPUTS = new Set([
  'range',
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'color',
  'file',
  'image',
]);
const SPACE_PRESSES = new Set(['button', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'option']);
const ARROW_MOVES = new Set([
  'tab',
  'slider',
  'listbox',
  'radiogroup',
  'tablist',
  'menu',
  'tree',
  'grid',
  'spinbutton',
]);

/** Where the focus is, as far as the shortcuts care. */
export interface FocusInfo {
  tag: string;
  /** An <input>'s type (lower case), else ''. */
  type: string;
  role: string;
  editable: boolean;
  /** Inside the Monaco editor. */
  inEditor: boolean;
  /** A drop-down whose list is open (where the browser tells: `:open`). */
  open?: boolean;
}

/** Whether a <select>'s list is open, where the browser says (`:open`; an older one throws). */
function listOpen(el: HTMLElement): boolean {
  try {
    return el.matches(':open');
  } catch {
    return false;
  }
}

export function focusInfo(target: EventTarget | null): FocusInfo | null {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return null;
  return {
    tag: el.tagName,
    type:
      el.tagName === 'INPUT'
        ? ((el as HTMLInputElement).type || 'text').toLowerCase()
        : el.tagName === 'SELECT'
          ? (el as HTMLSelectElement).type // 'select-one' or 'select-multiple'
          : '',
    role: el.getAttribute?.('role') ?? '',
    editable: !!el.isContentEditable,
    inEditor: !!el.closest?.('.monaco-editor'),
    ...(el.tagName === 'SELECT' && listOpen(el) ? { open: true } : {}),
  };
}

/** Typing: keys go to the text, never to the page. */
export function isTyping(f: FocusInfo | null): boolean {
  if (!f) return false;
  if (f.editable || f.inEditor || f.tag === 'TEXTAREA' || f.tag === 'SELECT') return true;
  return f.tag === 'INPUT' && !NOT_TEXT_INPUTS.has(f.type);
}

/** Whether the focused element keeps a key of this class for itself. */
export function focusKeeps(klass: KeyClass, f: FocusInfo | null): boolean {
  if (!f) return false;
  // A drop-down (the Scenario picker) chooses with ↑ / ↓ and by typing; its ← / → only repeated that,
  // so after a scenario was picked with the mouse (the focus stays on the picker) the lesson's → loaded
  // the next scenario instead of stepping. Its ← / → are the page's.
  if (klass === 'arrow' && f.tag === 'SELECT' && f.type !== 'select-multiple') return false;
  // Its Escape did nothing with the list closed (an open list takes Escape itself, and the page does
  // not see it): in the short window's Menu, where the picker sits, Escape left the Menu open there
  // while it closed it from every other control. It is the page's, as on a button.
  if (klass === 'escape' && f.tag === 'SELECT' && f.type !== 'select-multiple') return !!f.open;
  if (isTyping(f)) return true;
  if (klass === 'space')
    return (
      f.tag === 'BUTTON' ||
      f.tag === 'SUMMARY' ||
      (f.tag === 'INPUT' && f.type !== 'range') ||
      SPACE_PRESSES.has(f.role)
    );
  if (klass === 'arrow')
    return (f.tag === 'INPUT' && (f.type === 'range' || f.type === 'radio')) || ARROW_MOVES.has(f.role);
  return false;
}

/** The action a key press runs, or null when it is not the page's (see the header). */
export function actionFor(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'defaultPrevented'>,
  focus: FocusInfo | null,
  modalOpen: boolean,
): KeyAction | null {
  if (modalOpen || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return null;
  const action = KEY_ACTIONS.find((a) => a.keys.includes(e.key));
  if (!action || focusKeeps(action.klass, focus)) return null;
  return action;
}

/**
 * Whether a key pressed on the Scenario picker (a closed single drop-down) hands the focus to Play:
 * Enter or Escape (done picking), or ← / → (the page's step keys, so the page's letters should follow).
 */
export function handsKeysBack(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
  focus: FocusInfo | null,
): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || focus === null) return false;
  if (focus.tag !== 'SELECT' || focus.type === 'select-multiple' || focus.open) return false;
  return ['Enter', 'Escape', 'ArrowLeft', 'ArrowRight'].includes(e.key);
}

function modalOpen(doc: Document): boolean {
  try {
    return doc.querySelector(':modal') !== null;
  } catch {
    // a browser without :modal
    return doc.querySelector('dialog[open]') !== null;
  }
}

/** The page's one keydown listener; returns its removal. */
export function installKeys(win: Window, driver: Driver): () => void {
  const onKey = (e: KeyboardEvent) => {
    const action = actionFor(e, focusInfo(e.target), modalOpen(win.document));
    if (action?.run(driver)) e.preventDefault();
  };
  win.addEventListener('keydown', onKey);
  return () => win.removeEventListener('keydown', onKey);
}
