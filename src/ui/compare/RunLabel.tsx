/** A run's label as the page shows it: any trailing count (`+2 more`) kept whole on one line. */
import { splitLabelCount } from './settings';

export function RunLabel({ label }: { label: string }) {
  const { text, count } = splitLabelCount(label);
  if (count === null) return <>{label}</>;
  return (
    <>
      {text} <span className="label-count">{count}</span>
    </>
  );
}
