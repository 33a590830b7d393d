/** Tests that read a program client's arrival or program: the client, or a failure when it replays a trace. */
import { type ClientSpec, isTraceClient, type ProgramClientSpec } from '../../src/core/input';

export function pc(c: ClientSpec): ProgramClientSpec {
  if (isTraceClient(c)) throw new Error(`client '${c.name}' replays a trace; expected a program client`);
  return c;
}
