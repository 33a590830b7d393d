/**
 * The features' dialog frame: a labelled dialog that takes focus, gives it back when closed, closes
 * on Escape or a click on the backdrop, and keeps the playground's shortcuts (Space, →, R) from
 * firing underneath while it is open.
 */
import { type ReactNode, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';

export function FeatureDialog({
  label,
  onClose,
  children,
  wide,
}: {
  label: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('select, input, textarea, button')?.focus();
    return () => before?.focus?.();
  }, []);
  // Escape also closes when the focus has left the dialog (e.g. to the page after a download).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  // On <body>: a dialog inside a scrolling column would be clipped by it.
  return createPortal(
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes (see onKeyDown)
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the dialog
    <div className="scrim" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className={`dialog feature-dialog${wide ? ' wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        ref={ref}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          }
        }}
      >
        <div className="feature-dialog-head">
          <h2>{label}</h2>
          <button type="button" className="small" onClick={onClose} aria-label={`Close ${label}`}>
            ×
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
