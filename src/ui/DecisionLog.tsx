import { useUi } from '../state/store';

export function DecisionLog() {
  const decisions = useUi((s) => s.decisions);
  const newestFirst = decisions.slice(-100).reverse();
  return (
    <section className="panel" aria-labelledby="decision-log-title">
      <h2 id="decision-log-title">Decision log</h2>
      <ol className="decision-log" role="log" aria-label="Decision log">
        {newestFirst.length === 0 && <li className="empty">No decisions yet. Press Play or Step.</li>}
        {newestFirst.map((d) => (
          <li key={d.seq} data-seq={d.seq}>
            <span className="t">{d.t.toFixed(3)} s</span> {d.summary}
          </li>
        ))}
      </ol>
    </section>
  );
}
