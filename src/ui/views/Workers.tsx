import type { ViewProps } from './types';

export function Workers(_props: ViewProps) {
  return (
    <section className="panel" aria-label="Workers">
      <h2>Workers</h2>
      <p className="empty">Nothing to show yet.</p>
    </section>
  );
}
