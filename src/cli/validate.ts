import { type CliIO, EXIT } from './io';

export async function validateCommand(_args: string[], io: CliIO): Promise<number> {
  io.err('validate: not implemented yet');
  return EXIT.internal;
}
