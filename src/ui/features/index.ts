/** The playground's feature panels (explanation, sweeps, export/import, tours) and their bar. */
export { FeatureBar } from './FeatureBar';
export { FeaturePanels } from './FeaturePanels';

/** `window.fairground.explain()`: loads the explainer on first use. */
export async function explainLast(): Promise<string> {
  const m = await import('./explain-source');
  return m.explainLast();
}
