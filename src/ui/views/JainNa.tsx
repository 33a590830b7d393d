/**
 * Jain's index where it says nothing (core/metrics/jain.ts jainMeaningful): the same words in every
 * view (Figures, Compare's Difference table), the reason in the tooltip.
 */
import { JAIN_NA, JAIN_NA_WHY } from '../../core/metrics/jain';

/** `short`: just "n/a", the words moving into the tooltip (a narrow table cell). */
export function JainNa({ short = false }: { short?: boolean }) {
  return (
    <span className="jain-na" title={short ? `${JAIN_NA}. ${JAIN_NA_WHY}` : JAIN_NA_WHY}>
      {short ? 'n/a' : JAIN_NA}
    </span>
  );
}
