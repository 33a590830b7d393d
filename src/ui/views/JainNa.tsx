/**
 * Jain's index where it says nothing (core/metrics/jain.ts jainMeaningful): the same words in every
 * view (Figures, Compare's Difference table), the reason in the tooltip.
 */
import { JAIN_NA, JAIN_NA_WHY } from '../../core/metrics/jain';

export function JainNa() {
  return (
    <span className="jain-na" title={JAIN_NA_WHY}>
      {JAIN_NA}
    </span>
  );
}
