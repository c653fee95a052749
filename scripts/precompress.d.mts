/** Writes `<file>.br` and `<file>.gz` beside each compressible file under `dir`; returns how many. */
export function precompress(dir: string): number;
