/** The last request trace the user dropped or picked: Compare's second worker reads it too. */
let lastFile: File | null = null;

export function rememberTraceFile(file: File): void {
  lastFile = file;
}

export function lastTraceFile(): File | null {
  return lastFile;
}
