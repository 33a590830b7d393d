/** Documented size limits of a scenario: they keep a pasted or shared file from hanging the tab or the CLI. */
export const SCENARIO_LIMITS = {
  /** Most clients in one scenario. */
  maxClients: 64,
  /** Most workers (GPU replicas). */
  maxWorkers: 64,
  /** Longest simulated arrival window, seconds (one day). */
  maxDurationS: 86_400,
  /** Most requests the clients' arrival processes and programs are expected to inject (estimated from the means). */
  maxExpectedRequests: 2_000_000,
  /** Most scripted `requests:` entries. */
  maxScriptedRequests: 100_000,
  /** Most explicit arrival times in one `trace` process. */
  maxTraceTimes: 100_000,
  /** Longest single length (prompt part, output, document) in tokens. */
  maxTokens: 1_000_000,
  /** Highest arrival rate of one client, arrivals per second. */
  maxRate: 10_000,
  /** Most requests one program instance may submit (e.g. a tree of thoughts). */
  maxProgramRequests: 100_000,
} as const;
