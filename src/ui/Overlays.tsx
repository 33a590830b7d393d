/** The keyboard-shortcut help (listing the key registry, keys.ts) and the share-link dialog. */
import { useState } from 'react';
import { useUi } from '../state/store';
import { SharedTraceNote } from './share/NeededTrace';
import {
  EMBED_PANELS,
  type EmbedPanel,
  embedSnippet,
  embedUrl,
  PANEL_REGION,
  SANDBOX_PANELS,
} from './embed/panels';
import { KEY_HELP } from './keys';
import { Modal } from './Modal';
import { usePresentingShown } from './present/toggle';

export function HelpOverlay() {
  const open = useUi((s) => s.helpOpen);
  if (!open) return null;
  const close = () => useUi.setState({ helpOpen: false });
  return (
    <Modal label="Keyboard shortcuts" onClose={close} className="help-dialog">
      <h2>Keyboard shortcuts</h2>
      {/* Only the list scrolls: the heading and Close stay in view in a short window (F10: at 150 %
          the focused Close scrolled the whole dialog and cut its heading off at the top). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reachable by keyboard */}
      <section className="help-body" tabIndex={0} aria-label="Shortcut list">
        <table className="shortcuts">
          <tbody>
            {KEY_HELP.map(([k, what]) => (
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
          Tab moves through every control; shortcuts are ignored while typing in an editor. Click any time
          chart to jump to that simulated time.
        </p>
      </section>
      {/* the first focus: Enter or Escape leaves at once, Shift+Tab reaches the list to scroll it */}
      <button type="button" onClick={close} data-autofocus>
        Close
      </button>
    </Modal>
  );
}

export function ShareDialog() {
  const link = useUi((s) => s.shareLink);
  const copied = useUi((s) => s.shareCopied);
  const presenting = usePresentingShown();
  if (!link) return null;
  const close = () => useUi.setState({ shareLink: null });
  return (
    <Modal label="Share link" onClose={close}>
      <h2>Share this run</h2>
      <p>
        {copied
          ? 'The link is on your clipboard. It holds the scenario, the policy, the seed and the playhead.'
          : 'Copy this link (the clipboard is not available here). It holds the scenario, the policy, the seed and the playhead.'}
      </p>
      {presenting && (
        <p data-testid="share-presenting">
          You are presenting, so the link opens in presentation mode: the lesson&apos;s views in large type,
          without the decision log and the editor. For a link without it, leave presentation mode (P) and
          share again.
        </p>
      )}
      <SharedTraceNote />
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
    </Modal>
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
