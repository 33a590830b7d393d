/**
 * A panel's heading that, on a phone, is also the button folding the panel to one line with its count
 * ("Decision log · 12"). On wider screens the plain heading shows and the panel is always open.
 */
import { type Fold, setFold, usePhone } from './store';

export function FoldHeading({
  fold,
  id,
  title,
  count,
}: {
  fold: Fold;
  /** The heading's id (the panel is labelled by it). */
  id: string;
  title: string;
  /** What the folded line adds after the title: a count, a name. */
  count?: string;
}) {
  const open = usePhone((s) => s.open[fold]);
  return (
    <h2 id={id}>
      <span className="fold-title">{title}</span>
      <button
        type="button"
        className="fold-toggle"
        aria-expanded={open}
        aria-controls={`fold-${fold}`}
        onClick={() => setFold(fold, !open)}
      >
        <span className="fold-name">
          {title}
          {count ? <span className="fold-count"> · {count}</span> : null}
        </span>
        <span className="fold-mark" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
      </button>
    </h2>
  );
}

/** The attributes a foldable panel carries (its id for aria-controls, and whether it is folded). */
export function useFoldProps(fold: Fold): { id: string; 'data-fold': Fold; 'data-folded': 'true' | 'false' } {
  const open = usePhone((s) => s.open[fold]);
  return { id: `fold-${fold}`, 'data-fold': fold, 'data-folded': open ? 'false' : 'true' };
}
