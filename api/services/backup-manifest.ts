import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

// What a backup folder holds and how its manifest.json is written and read
// (docs/decisions/006-operations.md). The other backup files build on these names.

export const MANIFEST = "manifest.json";
export const DATABASE_FILE = "app.db";
export const UPLOADS_FOLDER = "uploads";
const FORMAT = "speed-dating-tickets-backup/1";

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  createdAt: z.iso.datetime(),
  database: z.object({
    file: z.literal(DATABASE_FILE),
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[a-f0-9]{64}$/),
  }),
  counts: z.object({ events: z.number().int().nonnegative(), paidBookings: z.number().int().nonnegative() }),
  uploads: z.object({
    folder: z.literal(UPLOADS_FOLDER),
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    files: z.array(z.object({ name: z.string().min(1), bytes: z.number().int().nonnegative() })),
  }),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type Backup = { folder: string; manifest: BackupManifest };
export type FileEntry = { name: string; bytes: number };

/** A backup or restore that cannot go on; the message is for the person running it. */
export class BackupError extends Error {}

/** The manifest of a backup taken at `now`, holding `database` and the uploads `files`. */
export function newManifest(input: {
  now: number;
  database: { bytes: number; sha256: string };
  counts: BackupManifest["counts"];
  files: FileEntry[];
}): BackupManifest {
  return {
    format: FORMAT,
    createdAt: new Date(input.now).toISOString(),
    database: { file: DATABASE_FILE, ...input.database },
    counts: input.counts,
    uploads: {
      folder: UPLOADS_FOLDER,
      count: input.files.length,
      bytes: input.files.reduce((sum, f) => sum + f.bytes, 0),
      files: input.files,
    },
  };
}

export async function writeManifest(folder: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(folder, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

export async function readManifest(folder: string): Promise<BackupManifest> {
  return manifestSchema.parse(JSON.parse(await readFile(join(folder, MANIFEST), "utf8")));
}

/** readManifest for a restore: anything wrong is a BackupError that says what. */
export async function readManifestOrRefuse(folder: string): Promise<BackupManifest> {
  return readManifest(folder).catch((error: unknown) => {
    throw new BackupError(`${folder} is not a backup folder (${MANIFEST}: ${reason(error)})`);
  });
}

/** The complete backups under `root`, newest first. Folders without a readable manifest are not backups. */
export async function listBackups(root: string): Promise<Backup[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const found: Backup[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const folder = join(root, name);
    const manifest = await readManifest(folder).catch(() => undefined);
    if (manifest) found.push({ folder, manifest });
  }
  return found.sort((a, b) => Date.parse(b.manifest.createdAt) - Date.parse(a.manifest.createdAt));
}

function reason(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
  if (error instanceof z.ZodError) return "not a manifest this version understands";
  return error instanceof Error ? error.message : String(error);
}
