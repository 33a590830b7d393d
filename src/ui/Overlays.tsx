/** The keyboard-shortcut help and the share-link dialog. Escape closes either. */
import { useEffect, useRef } from 'react';
import { useUi } from '../state/store';

export const SHORTCUTS: [string, string][] = [
  ['Space', 'Play / Pause'],
  ['→', 'Step one decision'],
  ['R', 'Reset to t = 0'],
  ['?', 'Show this help'],
  ['Esc', 'Close a dialog'],
  ['↑ / ↓ in the log', 'Select a decision (pauses and highlights it)'],
];

function Dialog({
  label,
  onClose,
  children,
}: {
  label: string;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('input, button')?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes (handled globally)
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the dialog
    <div className="scrim" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-label={label} ref={ref}>
        {children}
      </div>
    </div>
  );
}

export function HelpOverlay() {
  const open = useUi((s) => s.helpOpen);
  if (!open) return null;
  const close = () => useUi.setState({ helpOpen: false });
  return (
    <Dialog label="Keyboard shortcuts" onClose={close}>
      <h2>Keyboard shortcuts</h2>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([k, what]) => (
            <tr key={k}>
              <th scope="row">
                <kbd>{k}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Tab moves through every control; shortcuts are ignored while typing in an editor.
      </p>
      <button type="button" onClick={close}>
        Close
      </button>
    </Dialog>
  );
}

export function ShareDialog() {
  const link = useUi((s) => s.shareLink);
  const copied = useUi((s) => s.shareCopied);
  if (!link) return null;
  const close = () => useUi.setState({ shareLink: null });
  return (
    <Dialog label="Share link" onClose={close}>
      <h2>Share this run</h2>
      <p>
        {copied
          ? 'The link is on your clipboard. It holds the scenario, the policy, the seed and the playhead.'
          : 'Copy this link (the clipboard is not available here). It holds the scenario, the policy, the seed and the playhead.'}
      </p>
      <input
        className="share-link"
        aria-label="Share link"
        readOnly
        value={link}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="dialog-actions">
        <button
          type="button"
          onClick={() => {
            navigator.clipboard?.writeText(link).then(
              () => useUi.setState({ shareCopied: true }),
              () => {},
            );
          }}
          title="Copy the link to the clipboard"
        >
          Copy
        </button>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
