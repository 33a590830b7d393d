/**
 * What the page reads of a scenario or an arbitration script without validating it: which kind of
 * document it is, its name, a scenario's scheduler and routing (the schema's defaults when absent),
 * and the policy it embeds, as YAML text. The editors, Compare and the share link need these of any
 * text, valid or not; reading the keys is this format's job, so the state and UI layers never guess
 * them from a raw parse.
 */
import { parse, stringify } from 'yaml';
import { ROUTING_NAMES, SCHEDULER_NAMES } from '../core/algorithms';
import { flowTooDeep } from '../format/yaml';
import { isArbitrationScript } from '../policy/detect';

export type DocumentOutline =
  /** A mapping without `ops`: read as a scenario. */
  | {
      kind: 'scenario';
      name: string | null;
      /** `scheduler.policy`, or the schema's default. */
      scheduler: string;
      /** `router.routing`, or the schema's default. */
      routing: string;
      /** `router.policy` as YAML; '' when there is none. */
      policy_yaml: string;
    }
  /** An arbitration script (a mapping with `ops`). */
  | { kind: 'script'; name: string | null; policy_yaml: string }
  /** Not a mapping, or not YAML: `name` is what a `name:` line at the top level says, if any. */
  | { kind: 'other'; name: string | null };

type Mapping = { readonly [key: string]: unknown };

function isMapping(v: unknown): v is Mapping {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A scalar written where a name is expected (numbers as written). */
function scalar(v: unknown): string | null {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
}

function policyYaml(v: unknown): string {
  return v !== null && typeof v === 'object' ? stringify(v) : '';
}

/** A top-level `name:` line of a text that does not parse (quotes around the value dropped). */
function nameLine(text: string): string | null {
  const name = /^name:\s*(.+)$/m.exec(text)?.[1]?.trim();
  return name ? name.replace(/^['"]|['"]$/g, '') : null;
}

export function outlineOf(text: string): DocumentOutline {
  // too deep for any format, and seconds for the parser (a share link's scenario is read here)
  if (flowTooDeep(text)) return { kind: 'other', name: nameLine(text) };
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch {
    return { kind: 'other', name: nameLine(text) };
  }
  if (!isMapping(doc)) return { kind: 'other', name: nameLine(text) };
  const name = scalar(doc.name);
  if (isArbitrationScript(doc)) return { kind: 'script', name, policy_yaml: policyYaml(doc.policy) };
  const router = isMapping(doc.router) ? doc.router : {};
  const scheduler = isMapping(doc.scheduler) ? doc.scheduler : {};
  return {
    kind: 'scenario',
    name,
    scheduler: scalar(scheduler.policy) ?? SCHEDULER_NAMES[0],
    routing: scalar(router.routing) ?? ROUTING_NAMES[0],
    policy_yaml: policyYaml(router.policy),
  };
}
