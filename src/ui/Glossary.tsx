/**
 * One glossary for the page's shorthand (tester F12): each term gets a focusable "?" button that
 * shows its definition on tap, click or Enter (no hover-only tooltips, which phones cannot open).
 * The definitions live here only.
 */
import { Fragment, type ReactNode, useId, useState } from 'react';

export const GLOSSARY = {
  'service-units': {
    term: 'service units',
    text: 'How service is counted: w_e × input tokens + w_q × output tokens, with the weights w_e and w_q from the scenario.',
  },
  'q-i': {
    term: 'q_i',
    text: "Client i's deficit in DLPM: it grows by the quantum Q^u at each refill and shrinks by the service the client's admitted requests get; a client with no deficit left waits. Each worker runs its own DLPM and keeps its own q_i: Client service shows their sum over all workers (with one worker, that worker's q_i), so with several workers a client may still wait on a worker where its own q_i is used up.",
  },
  'step-ms': {
    // not 'step': the transport's Step button owns that name
    term: 'the time of the last batch',
    text: "How long the worker's last batch step took, in simulated time (milliseconds).",
  },
  'w-e-q': {
    term: 'w_e and w_q',
    text: 'The two weights of the service measure: w_e is what one uncached input token costs (scheduler.weights.input, 1 unless set), w_q what one generated output token costs (scheduler.weights.output, 2 unless set).',
  },
  'q-u': {
    term: 'Q^u',
    text: "DLPM's per-client quantum, in service units (scheduler.quantum): whenever no client with waiting requests has a positive deficit, each client at or below zero is credited Q^u. A larger Q^u lets a client keep reusing its cached prefix for longer before the others get their turn: more cache hits, a looser fairness bound.",
  },
  'drr-v2': {
    term: 'V2',
    text: "The DRR variant the Dynamo router's code implements, the default (a DRR sandbox script may ask for V1 with variant: v1): when a pop leaves a class with requests still queued and credit to spare, the next pop tries that class first (the carry) before scanning the ring from the cursor.",
  },
  'drr-v1': {
    term: 'V1',
    text: "The DRR variant the Dynamo router's documentation describes: there is no carry, every pop scans the ring from the cursor, and the cursor stays on a class only while its next head is already paid for. V2, what the router's code does, differs when an arrival changes a class's head between two pops.",
  },
  'profile-root': {
    term: 'profile (root)',
    text: "The policy profile classifying requests: its classes, families and uncached-token buckets. (root) is the profile the policy file's top-level keys define (default_policy_family, uncached_isl_buckets, policy_classes); a profile under models: is used instead for requests whose model carries that name.",
  },
  profile: {
    term: 'the policy profile',
    text: "The policy profile classifying requests: its classes, families and uncached-token buckets. (root) is the one the policy file's top-level keys define, a model's name one under models:, and (default) the single class the router uses when no policy is given.",
  },
  's1-s2': {
    term: 'S1 / S2',
    text: "The DLPM paper's two kinds of misbehaving client. S1: it sends more requests than the others (a higher rate, or programs with more branches). S2: its requests carry longer prefixes (longer documents or questions, or extra tokens before each article).",
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

/**
 * `text` with the first occurrence of each listed word (a whole word, as written) wrapped in its
 * glossary term, once per term: for strings built elsewhere (a scenario's name, a theorem's label).
 */
export function glossed(text: string, words: readonly (readonly [string, GlossaryId])[]): ReactNode {
  const found = termsIn(text, words);
  if (found.length === 0) return text;
  const out: ReactNode[] = [];
  const used = new Set<GlossaryId>();
  let from = 0;
  for (const f of found) {
    // one "?" per term (S1 and S2 share theirs), none inside a word already wrapped
    if (f.at < from || used.has(f.id)) continue;
    used.add(f.id);
    out.push(text.slice(from, f.at));
    out.push(
      <Term key={f.id} id={f.id}>
        {f.w}
      </Term>,
    );
    from = f.at + f.w.length;
  }
  out.push(text.slice(from));
  return <Fragment>{out}</Fragment>;
}

/**
 * `text` as written, followed by one "?" per listed term it contains (in text order): for headings,
 * where a "?" between words would split the title ("S1 (?) misbehaving client").
 */
export function glossedAtEnd(text: string, words: readonly (readonly [string, GlossaryId])[]): ReactNode {
  const ids: GlossaryId[] = [];
  for (const { id } of termsIn(text, words)) if (!ids.includes(id)) ids.push(id);
  if (ids.length === 0) return text;
  return (
    <Fragment>
      {text}
      {ids.map((id) => (
        <Term key={id} id={id}>
          {' '}
        </Term>
      ))}
    </Fragment>
  );
}

/** The listed words `text` holds, each where it first stands on its own, in text order. */
function termsIn(text: string, words: readonly (readonly [string, GlossaryId])[]) {
  return words
    .map(([w, id]) => ({ w, id, at: wordAt(text, w) }))
    .filter((f) => f.at >= 0)
    .sort((a, b) => a.at - b.at);
}

/** Where `word` first stands on its own in `text` (no letter, digit or _ on either side), else −1. */
function wordAt(text: string, word: string): number {
  const inWord = (ch: string | undefined) => ch !== undefined && /[A-Za-z0-9_]/.test(ch);
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1))
    if (!inWord(text[at - 1]) && !inWord(text[at + word.length])) return at;
  return -1;
}
