import { type CliIO, EXIT } from './io';

export async function arbitrateCommand(_args: string[], io: CliIO): Promise<number> {
  io.err('arbitrate: not implemented yet');
  return EXIT.internal;
}
