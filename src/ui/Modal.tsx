/**
 * Every modal of the page (Share, keyboard help, Compare, Sweep, Export, Import) is this: the native
 * `<dialog>` opened with `showModal()`. The browser does what hand-made overlays got wrong: the rest of
 * the page is inert (Tab stays inside, clicks and screen readers do not reach behind), Escape closes
 * it (the `cancel` event), it sits in the top layer (no scrolling column clips it), and closing gives
 * the focus back to what had it when it opened.
 *
 * The first focus goes where showModal puts it (the first focusable element), or to the element marked
 * `data-autofocus`.
 *
 * When the opener is gone by the time the dialog closes (a feature button inside the phone header's
 * Menu, folded while the dialog was open: at 853 px or on a phone), the browser's restore lands on
 * the body and the next Tab starts over at the Scenario picker; the focus then goes to the Menu
 * button, where the opener lives.
 *
 * Mounting opens it, unmounting closes it, so the owner's state stays the one truth: Escape and a click
 * on the backdrop only ask the owner to close (`onClose`). A dialog the browser closes by itself (it
 * may refuse to cancel an Escape twice without a user gesture in between) asks the same.
 */
import { type ReactNode, useLayoutEffect, useRef } from 'react';

/** Whether `el` can hold the focus: attached, rendered (not inside a folded menu), not disabled. */
function focusable(el: Element | null): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected || el === document.body) return false;
  if (el.getClientRects().length === 0) return false;
  return !(el instanceof HTMLButtonElement && el.disabled);
}

/**
 * The Play button drawn now, when it can be pressed: where a dialog that has just started something to
 * watch (Compare's "Start comparing", "Update run B") gives the focus, so Space plays, not reopens it.
 */
export function playButton(): HTMLElement | null {
  return [...document.querySelectorAll('[data-transport="play"]')].find(focusable) ?? null;
}

/**
 * After a dialog closed (or the phone's menu folded): if the focus fell to the body (its opener, or
 * the control it was on, hidden), give it to the Menu button.
 */
export function refocusIfLost(): void {
  if (typeof document === 'undefined') return;
  const now = document.activeElement;
  if (focusable(now)) return;
  // the one drawn (the header has a Menu for each layout, one of them not displayed)
  const menu = [...document.querySelectorAll('.menu-button')].find(focusable);
  menu?.focus();
}

export function Modal({
  label,
  onClose,
  children,
  className,
  heading = 'plain',
  focusOnClose,
}: {
  label: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** 'bar': a heading with the label and a × button above the content; 'plain': the content only. */
  heading?: 'bar' | 'plain';
  /**
   * Where the focus goes when the dialog closes, instead of back to its opener (asked at that moment;
   * null: the opener after all).
   */
  focusOnClose?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const focusOnCloseRef = useRef(focusOnClose);
  focusOnCloseRef.current = focusOnClose;
  /** Set while the dialog is being closed because it unmounts (its `close` event is ours then). */
  const leaving = useRef(false);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    leaving.current = false;
    if (!dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable thing inside; a dialog may name a better first stop
      // (React's autoFocus runs before the dialog is open, when nothing in it can take the focus)
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => {
      leaving.current = true;
      // before React removes it: closing a modal dialog is what gives the focus back
      if (dialog.open) dialog.close();
      const next = focusOnCloseRef.current?.() ?? null;
      if (focusable(next)) next.focus();
      else refocusIfLost();
    };
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard's way out is Escape (the dialog's cancel event)
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-label={label}
      onCancel={(e) => {
        e.preventDefault();
        onCloseRef.current();
      }}
      onClose={() => {
        if (!leaving.current) onCloseRef.current();
      }}
      onClick={(e) => {
        // a click on the backdrop lands on the <dialog> itself, outside its box
        if (e.target !== e.currentTarget) return;
        const box = e.currentTarget.getBoundingClientRect();
        const inside =
          e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
        if (!inside) onCloseRef.current();
      }}
    >
      {heading === 'bar' && (
        <div className="feature-dialog-head">
          <h2>{label}</h2>
          <button
            type="button"
            className="small"
            onClick={() => onCloseRef.current()}
            aria-label={`Close ${label}`}
          >
            ×
          </button>
        </div>
      )}
      {children}
    </dialog>
  );
}
