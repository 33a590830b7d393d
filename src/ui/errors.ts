/**
 * The page never throws at the user: an unexpected error or unhandled rejection anywhere becomes a
 * visible, recoverable message (the run and the editors stay; the user's text is kept and can be
 * downloaded), not a dead page or a silent console line. Monaco's `Canceled` (a request of the
 * editor's language worker abandoned when a model is swapped, e.g. a scenario pasted over with an
 * arbitration script) is the expected end of that request, not an error: it is dropped.
 */
import { useEdits } from '../state/edits';
import { useUi } from '../state/store';

/** Monaco's (and VS Code's) cancellation error: `new Error('Canceled')` named `Canceled`. */
export function isCancellation(err: unknown): boolean {
  return err instanceof Error && err.name === 'Canceled' && err.message === 'Canceled';
}

/** A short, readable line for any thrown value (never more than ~200 characters of it). */
export function describeError(err: unknown): string {
  const text =
    err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Show an unexpected error where the user sees it; the editors' texts are untouched. */
export function reportUnexpected(err: unknown): void {
  if (isCancellation(err)) return;
  useUi.setState({ crash: describeError(err) });
}

/** The editors' texts as one file the user can keep (what the error message offers to download). */
export function textsForDownload(): string {
  const { texts } = useEdits.getState();
  const policy = texts.policy.trim() ? `\n# ---- policy editor ----\n${texts.policy}` : '';
  return `${texts.scenario}${policy}`;
}

let installed = false;

export function installErrorHandlers(target: Window = window): void {
  if (installed) return;
  installed = true;
  target.addEventListener('unhandledrejection', (e) => {
    e.preventDefault();
    reportUnexpected(e.reason);
  });
  target.addEventListener('error', (e) => {
    // resource load errors (an <img>) have no `error`; nothing of ours loads that way
    if (e.error === undefined && !e.message) return;
    e.preventDefault();
    reportUnexpected(e.error ?? e.message);
  });
}
