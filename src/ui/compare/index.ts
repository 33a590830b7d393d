/** Compare mode: two runs side by side on one timeline, with a Difference panel. */
import './compare.css';

export { CompareColumns } from './CompareColumns';
export { CompareDialog } from './CompareDialog';
export { DifferencePanel } from './DifferencePanel';
export { CompareRunner, compareRunner } from './runner';
export { useCompare } from './store';
export type { CompareSettings } from './settings';
