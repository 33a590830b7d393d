// Property tests draw their cases from one fixed seed, so CI and every machine run the same cases and a
// failure is reproducible as it is. FC_SEED=<n> explores other cases (a failure prints its seed).
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20_261_123);
fc.configureGlobal({ seed: Number.isFinite(seed) ? seed : 20_261_123 });
