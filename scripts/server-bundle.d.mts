import type { BuildOptions } from "esbuild";

export const root: string;
export function serverBundle(
  entryPoints: Record<string, string>,
  outdir: string,
  extra?: BuildOptions,
): BuildOptions & { metafile?: boolean };
export function copyServerFiles(outdir: string): void;
