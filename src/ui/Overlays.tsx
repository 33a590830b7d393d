/** The keyboard-shortcut help and the share-link dialog. Escape closes either. */
import { useEffect, useRef, useState } from 'react';
import { useUi } from '../state/store';
import {
  EMBED_PANELS,
  type EmbedPanel,
  embedSnippet,
  embedUrl,
  PANEL_REGION,
  SANDBOX_PANELS,
} from './embed/panels';

export const SHORTCUTS: [string, string][] = [
  ['Space', 'Play / Pause'],
  ['→', 'Step one decision'],
  ['←', 'Step one decision back (replays from the nearest restore point)'],
  ['R', 'Reset to t = 0'],
  ['P', 'Presentation mode: the lesson’s views fill the screen in large type (Esc leaves it)'],
  ['?', 'Show this help'],
  ['Esc', 'Close a dialog, or leave compare mode'],
  ['↑ / ↓', 'In the decision log: select a decision (pauses and highlights it)'],
  ['← / → on a chart', 'With a view focused (Tab): move the playhead one decision'],
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
        Tab moves through every control; shortcuts are ignored while typing in an editor. Click any time chart
        to jump to that simulated time.
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
      <EmbedCode link={link} />
    </Dialog>
  );
}

/** The share dialog's embed part: pick panels, read or copy the `<iframe>` snippet for them. */
function EmbedCode({ link }: { link: string }) {
  const kind = useUi((s) => s.kind);
  const offered = kind === 'arbitration' ? SANDBOX_PANELS : EMBED_PANELS;
  const [panels, setPanels] = useState<readonly EmbedPanel[]>(offered);
  const [copied, setCopied] = useState(false);
  const chosen = offered.filter((p) => panels.includes(p));
  const code = embedSnippet(embedUrl(link, chosen.length ? chosen : offered));
  const flip = (p: EmbedPanel) => {
    setCopied(false);
    setPanels((now) => (now.includes(p) ? now.filter((x) => x !== p) : [...now, p]));
  };
  return (
    <div className="embed-code">
      <fieldset className="embed-choice">
        <legend>Embed in slides or docs: panels</legend>
        {offered.map((p) => (
          <label key={p}>
            <input type="checkbox" checked={panels.includes(p)} onChange={() => flip(p)} />
            {PANEL_REGION[p]}
          </label>
        ))}
      </fieldset>
      <textarea
        className="share-link"
        aria-label="Embed code"
        readOnly
        rows={3}
        value={code}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="dialog-actions">
        {copied && <span className="muted">Copied.</span>}
        <button
          type="button"
          onClick={() => {
            navigator.clipboard?.writeText(code).then(
              () => setCopied(true),
              () => {},
            );
          }}
          title="Copy an <iframe> that shows this run with only the chosen panels"
        >
          Copy embed code
        </button>
      </div>
    </div>
  );
}
