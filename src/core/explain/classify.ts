/**
 * "Why did this request land in this class?": the class resolution of an enqueue (the profile and
 * why it applies, the requested name, the uncached tokens against each bucket floor, the physical
 * class), each step pointing at the YAML line it rests on.
 */
import type { ClassResolution } from '../drr/classify';
import type { ExplanationStep } from './types';
import { num } from './words';

export function explainClassResolution(r: ClassResolution): ExplanationStep[] {
  const steps: ExplanationStep[] = [];
  const profile = r.profile;
  if (r.profile_reason === 'model')
    steps.push({
      text: `Profile: the model ${r.model} has its own profile under models:, so only its classes are visible.`,
      ref: { kind: 'profile', name: profile, profile },
    });
  else if (r.profile_reason === 'root')
    steps.push({
      text: r.model
        ? `Profile: the root profile — the policy gives the model ${r.model} no profile of its own (none under models:).`
        : 'Profile: the root profile (the request names no model).',
      ref: { kind: 'profile', name: profile, profile },
    });
  else
    steps.push({
      text: 'Profile: the synthetic default class — the policy has no profile for this request.',
    });
  const asked = r.requested === null ? 'no class' : `'${r.requested}'`;
  if (r.via === 'explicit')
    steps.push({
      text: `The request asks for ${asked}, an explicit class of this profile: it goes there, whatever its cache state.`,
      ref: { kind: 'class', name: r.class_name, profile },
    });
  else if (r.via === 'first-class')
    steps.push({
      text: `The request asks for ${asked}; this profile has no families, so its first class takes it.`,
    });
  else {
    steps.push(
      r.via === 'family'
        ? { text: `The request asks for ${asked}, a policy family: its bucket decides the class.` }
        : {
            text: `The request asks for ${asked}, which is neither an explicit class nor a family: it uses default_policy_family '${r.family}'.`,
            ref: { kind: 'family', name: r.family ?? '', profile },
          },
    );
    for (const f of r.floors)
      steps.push({
        text: `${num(r.uncached)} ${f.reached ? '≥' : '<'} ${num(f.min_tokens)} → ${f.reached ? `reaches bucket '${f.bucket}'` : `not '${f.bucket}'`}`,
        ref: { kind: 'bucket', name: f.bucket, profile },
      });
    if (r.bucket !== null)
      steps.push({
        text: `Uncached tokens ${num(r.uncached)} fall in bucket '${r.bucket}' (the last floor reached); family '${r.family}' × bucket '${r.bucket}' is the matrix cell of class ${r.class_name}.`,
        ref: { kind: 'class', name: r.class_name, profile },
      });
  }
  steps.push({
    text: `Physical class: ${r.class_name}.`,
    ref: { kind: 'class', name: r.class_name, profile },
    final: true,
  });
  return steps;
}
