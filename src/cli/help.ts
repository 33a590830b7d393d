/** The text of `help` (kept apart from main.ts, which runs on import, so tests can read it). */
export const HELP = `Fairground — fair, locality-aware LLM request scheduling, headless.

Usage:
  npm run -s sim -- run <scenario.yaml> [--seed N] [--json] [--trace <out.jsonl>] [--policy <policy.yaml>] [--replay <trace file>] [--set key.path=value ...] [--max-memory-mb N] [--max-events N]
  npm run -s sim -- arbitrate <script.yaml>
  npm run -s sim -- validate <file.yaml>...
  npm run -s sim -- help

Commands:
  run        simulate a scenario on the GPU-cluster model; a summary table, or JSON with --json
  arbitrate  drive the router's policy-class DRR queue with an arbitration script; one JSON line per op
  validate   check policy, scenario and arbitration-script files; prints "ok: <file>" per valid file

Options of run:
  --seed N           seed override (0 .. 4294967295)
  --json             one JSON object on stdout instead of the summary table
  --trace <file>     write one JSON line per scheduling decision (the decision trace)
  --policy <file>    a Dynamo router policy file that replaces the scenario's router.policy
  --replay <file>    replay a request trace as the whole workload: Mooncake JSONL (timestamp ms,
                     input_length, output_length, hash_ids), Azure LLM inference or BurstGPT CSV, or
                     a CSV mapped by the scenario's trace.columns; replaces the scenario's clients
                     (trace clients too) and scripted requests and runs until the trace's last
                     arrival (the scenario's trace: section, if any, gives format, time_scale, window
                     and defaults)
  --set k.p=v        override a scenario key (repeatable; k.p is a.b.c, a.b[2].c, or a list entry's
                     name: clients.alice.arrival.rate). A bad override is reported against itself,
                     not a line of the file: --set k.p=v:COL: message, COL the column inside k.p=v
                     (the value, the part of a flow value, or the unknown key)
  --max-memory-mb N  raise the memory budget (MB, default 1536) a scenario's estimate must fit
  --max-events N     raise the event budget (default 1,000,000,000): refused up front when the
                     estimate passes it, and a run that passes it stops
  A scenario can also replay a trace by itself: trace: {file: <path relative to it>, ...}, and a
  client can be a trace: clients: [{name: chat, trace: {file: <path>, time_scale: 0.5}}, ...].

Exit codes: 0 success, 1 invalid input (file:line:col: message on stderr; --set k.p=v:COL: message
  for a bad override), 2 internal error,
  130 interrupted (Ctrl-C: the partial result so far goes to stdout, with "interrupted": true in JSON).
`;
