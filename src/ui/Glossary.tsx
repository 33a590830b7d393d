/**
 * One glossary for the page's shorthand (tester F12): each term gets a focusable "?" button that
 * shows its definition on tap, click or Enter (no hover-only tooltips, which phones cannot open).
 * The definitions live here only.
 */
import { type ReactNode, useId, useState } from 'react';

export const GLOSSARY = {
  'service-units': {
    term: 'service units',
    text: 'How service is counted: w_e × input tokens + w_q × output tokens, with the weights w_e and w_q from the scenario.',
  },
  'q-i': {
    term: 'q_i',
    text: "Client i's deficit in DLPM: it grows by the quantum Q^u at each refill and shrinks by the service the client's admitted requests get; a client with no deficit left waits.",
  },
  'step-ms': {
    // not 'step': the transport's Step button owns that name
    term: 'the time of the last batch',
    text: "How long the worker's last batch step took, in simulated time (milliseconds).",
  },
} as const;

export type GlossaryId = keyof typeof GLOSSARY;

export function Term({ id, children }: { id: GlossaryId; children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const def = useId();
  const g = GLOSSARY[id];
  return (
    <span className="gl-term">
      {children ?? g.term}
      <button
        type="button"
        className="gl-q"
        aria-expanded={open}
        aria-controls={def}
        aria-label={`What is ${g.term}?`}
        onClick={(e) => {
          e.stopPropagation();
          setOpen((o) => !o);
        }}
      >
        ?
      </button>
      {open && (
        <span id={def} role="note" className="gl-def">
          <b>{g.term}</b>: {g.text}
        </span>
      )}
    </span>
  );
}
