import type { ViewProps } from './types';

export function ClientService(_props: ViewProps) {
  return (
    <section className="panel" aria-label="Client service">
      <h2>Client service</h2>
      <p className="empty">Nothing to show yet.</p>
    </section>
  );
}
