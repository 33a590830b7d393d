import type { ViewProps } from './types';

export function ClassQueues(_props: ViewProps) {
  return (
    <section className="panel" aria-label="Class queues">
      <h2>Class queues</h2>
      <p className="empty">Nothing to show yet.</p>
    </section>
  );
}
