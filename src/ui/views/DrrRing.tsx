import type { ViewProps } from './types';

export function DrrRing(_props: ViewProps) {
  return (
    <section className="panel" aria-label="DRR ring">
      <h2>DRR ring</h2>
      <p className="empty">Nothing to show yet.</p>
    </section>
  );
}
