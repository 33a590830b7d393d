import type { ViewProps } from './types';

export function Figures(_props: ViewProps) {
  return (
    <section className="panel" aria-label="Figures">
      <h2>Figures</h2>
      <p className="empty">Nothing to show yet.</p>
    </section>
  );
}
