/** The zod builders the scenario schema's parts share (they live in core, beside the algorithms' parameters). */
export { int, label, NAME_RE, name, num, thousands } from '../core/zod-fields';
