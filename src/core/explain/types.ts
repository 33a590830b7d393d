/**
 * The shape of a plain-words explanation: an ordered list of steps, each optionally pointing at the
 * YAML element (a policy class, a scenario parameter or a client) it talks about, so the editor can
 * highlight that line when a reader selects the step.
 */

/** What a step points at in the YAML the user edits. */
export interface ExplanationRef {
  /**
   * `class`: a policy class (`policy_classes[].name`, in `profile` when it is a model profile);
   * `param`: a scenario or policy key given as a dotted path (e.g. `scheduler.quantum`);
   * `client`: a client of the scenario (`clients[].name`);
   * `bucket`: a bucket floor of a policy profile (`uncached_isl_buckets[].min_tokens` of the bucket `name`);
   * `family`: the `default_policy_family` key of a policy profile (`name` is the family);
   * `profile`: a policy profile (`models.<name>`, or the root profile's keys for `(root)`).
   */
  kind: 'class' | 'param' | 'client' | 'bucket' | 'family' | 'profile';
  name: string;
  /** The policy profile of a class, bucket or family: `(root)`, `(default)` or a model name from `models:`. */
  profile?: string;
}

export interface ExplanationStep {
  text: string;
  ref?: ExplanationRef;
  /** The concluding line ("Result: ..."): printed without a number. */
  final?: boolean;
}

/** Numbered steps, one per line; the concluding step keeps its own wording and gets no number. */
export function stepsToText(steps: readonly ExplanationStep[]): string {
  let n = 0;
  return steps.map((s) => (s.final ? s.text : `${++n}. ${s.text}`)).join('\n');
}
