/** Per-client round-robin: each client's requests cycle over the workers (the DLPM paper's VTC baseline). */
import { defineRouting } from '../descriptor';
import { PerClientRoundRobinRouter } from './policy';

export const perClientRr = defineRouting({
  name: 'per-client-rr',
  summary: "each client's own requests cycle over the workers",
  params: {},
  state: (p) => (p instanceof PerClientRoundRobinRouter ? p.describe() : undefined),
  create: (cfg) => new PerClientRoundRobinRouter(cfg.workers),
  composes: {
    kind: 'spread',
    label: 'per-client round-robin',
    theorem: 'with per-client round-robin (Appendix A.3)',
    phrase: 'per-client round-robin (Appendix A.3)',
    locals: ['dlpm', 'vtc'],
    reason: (w) =>
      `per-client round-robin spreads every client over all ${w} workers, so the local bound adds up`,
  },
});
