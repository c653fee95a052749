import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { hmac, safeEqual } from "../lib/crypto.ts";

// What a backup folder holds and how its manifest.json is written, signed and read
// (docs/decisions/006-operations.md). The other backup files build on these names.

export const MANIFEST = "manifest.json";
export const DATABASE_FILE = "app.db";
export const UPLOADS_FOLDER = "uploads";
/** Backups made before they were signed: no signature, and uploads listed by size only. */
const FORMAT_UNSIGNED = "speed-dating-tickets-backup/1";
/** Always signed, and every upload carries its sha256, so the signature covers every byte restored. */
const FORMAT = "speed-dating-tickets-backup/2";
/** The HMAC's purpose: a signature made for a cookie or a link can never pass for a manifest's. */
const SIGNING_PURPOSE = "backup-manifest";
const SIGNATURE_PREFIX = "hmac-sha256:";

const sha256Schema = z.string().regex(/^[a-f0-9]{64}$/);
const fileSchema = z.object({
  name: z.string().min(1),
  bytes: z.number().int().nonnegative(),
  sha256: sha256Schema.optional(),
});

const manifestSchema = z.object({
  format: z.enum([FORMAT_UNSIGNED, FORMAT]),
  createdAt: z.iso.datetime(),
  database: z.object({ file: z.literal(DATABASE_FILE), bytes: z.number().int().nonnegative(), sha256: sha256Schema }),
  counts: z.object({ events: z.number().int().nonnegative(), paidBookings: z.number().int().nonnegative() }),
  uploads: z.object({
    folder: z.literal(UPLOADS_FOLDER),
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    files: z.array(fileSchema),
  }),
  signature: z
    .string()
    .regex(/^hmac-sha256:[\w-]{43}$/)
    .optional(),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type Backup = { folder: string; manifest: BackupManifest };
export type FileEntry = z.infer<typeof fileSchema>;

/** A backup or restore that cannot go on; the message is for the person running it. */
export class BackupError extends Error {}

/** The signed manifest of a backup taken at `now`, holding `database` and the uploads `files`. */
export function newManifest(input: {
  now: number;
  database: { bytes: number; sha256: string };
  counts: BackupManifest["counts"];
  files: FileEntry[];
  secret: string;
}): BackupManifest {
  const manifest: BackupManifest = {
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
  return { ...manifest, signature: signature(manifest, input.secret) };
}

/**
 * HMAC-SHA256 with SESSION_SECRET over the manifest without its signature, as JSON with its keys
 * sorted: the same bytes however the file was indented or its keys ordered. What the schema does not
 * know is dropped when the manifest is read, so everything a restore acts on is signed.
 */
function signature(manifest: BackupManifest, secret: string): string {
  const { signature: _, ...signed } = manifestSchema.parse(manifest);
  return `${SIGNATURE_PREFIX}${hmac(secret, SIGNING_PURPOSE, JSON.stringify(sortedKeys(signed)))}`;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, sortedKeys(v)]),
  );
}

export async function writeManifest(folder: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(folder, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

/** The manifest as written, signed or not: enough to list and prune backups, never to restore one. */
export async function readManifest(folder: string): Promise<BackupManifest> {
  return manifestSchema.parse(JSON.parse(await readFile(join(folder, MANIFEST), "utf8")));
}

/**
 * The manifest of a backup to restore, its signature checked with `secret`. A signature that does not
 * match is refused whatever the options: the backup was changed, or made with another secret. A
 * backup without one is refused too, unless it is of the format made before signing and
 * `allowUnsigned` (the operator's `--unsigned`) says they trust where it came from.
 */
export async function readSignedManifest(
  folder: string,
  options: { secret: string; allowUnsigned: boolean },
): Promise<{ manifest: BackupManifest; signed: boolean }> {
  const manifest = await readManifest(folder).catch((error: unknown) => {
    throw new BackupError(`${folder} is not a backup folder (${MANIFEST}: ${reason(error)})`);
  });
  if (manifest.signature !== undefined) {
    if (!safeEqual(manifest.signature, signature(manifest, options.secret))) {
      throw new BackupError(
        "the manifest's signature does not match: the backup was changed after it was made, " +
          "or made with another SESSION_SECRET (restoring needs the secret it was made with)",
      );
    }
    return { manifest, signed: true };
  }
  if (manifest.format !== FORMAT_UNSIGNED) {
    throw new BackupError(`the manifest has no signature, though ${manifest.format} backups are always signed`);
  }
  if (!options.allowUnsigned) {
    throw new BackupError(
      "the backup is not signed (made before backups were signed): add --unsigned if you know where it comes from",
    );
  }
  return { manifest, signed: false };
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
