/**
 * Dynamo router policy YAML and arbitration scripts: parsing and validation with positions, the
 * JSON Schemas for the editor, and compilation to the plain types of src/core/drr.
 */
export type { PolicyFile, CompiledPolicy, ArbitrationScript } from '../core/drr/types';
export type { Problem, Result } from '../format/yaml';
export {
  parsePolicyValue,
  parsePolicyText,
  validatePolicyText,
  checkPolicyValue,
  valueAt,
} from './parse';
export { compilePolicy, compileProfile } from './compile';
export { policyRuleProblems, type RuleOptions } from './rules';
export {
  policyFileSchema,
  policyJsonSchema,
  classSchema,
  bucketSchema,
  profileSchema,
  IDENTIFIER,
} from './schema';
export {
  scriptSchema,
  scriptJsonSchema,
  parseScriptValue,
  scriptWithPolicy,
  validateScriptText,
  type ScriptOptions,
} from './script';
export { type DocumentHead, documentHead, isArbitrationScript, isPolicyDoc } from './detect';
export { KEY_RELEASES, RELEASES, releaseRangeText } from './generations';
