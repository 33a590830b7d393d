import { useEffect } from 'react';
import { useUi } from '../state/store';
import { Controls } from './Controls';
import { DecisionLog } from './DecisionLog';
import type { Driver } from './driver';

export function App({ driver }: { driver: Driver }) {
  const scenarioName = useUi((s) => s.scenarioName);
  const problems = useUi((s) => s.problems);
  const message = useUi((s) => s.message);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === ' ') {
        if (target?.tagName === 'BUTTON') return;
        e.preventDefault();
        driver.toggle();
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        driver.step(1);
      } else if (e.key === 'r' || e.key === 'R') {
        driver.reset();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [driver]);

  return (
    <div className="app">
      <header className="masthead">
        <h1>
          Fairground <span className="tagline">fair &amp; locality-aware LLM request scheduling</span>
        </h1>
        <Controls driver={driver} />
      </header>
      {message && (
        <div className="banner" role="alert">
          {message}
        </div>
      )}
      {problems.length > 0 && (
        <div className="banner error" role="alert">
          {problems.map((p) => (
            <div key={`${p.line}:${p.col}:${p.message}`}>
              {p.line}:{p.col}: {p.message}
            </div>
          ))}
        </div>
      )}
      <main className="workspace">
        <section className="panel" aria-label="Scenario">
          <h2>{scenarioName || 'No scenario'}</h2>
        </section>
        <DecisionLog />
      </main>
    </div>
  );
}
