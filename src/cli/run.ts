import { type CliIO, EXIT } from './io';

export async function runCommand(_args: string[], io: CliIO): Promise<number> {
  io.err('run: not implemented yet');
  return EXIT.internal;
}
