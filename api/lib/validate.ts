import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { BadRequest } from "./errors.ts";

/**
 * zod validation for a request part; a failure becomes one 400 `{success:false, error}` naming the
 * first bad field, through the app's single onError.
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const field = issue?.path.join(".");
      throw BadRequest(field ? `${field}: ${issue?.message}` : (issue?.message ?? "invalid request"));
    }
  });

/**
 * A person's name as they type it: 1 to 100 characters, and no control characters (NUL, escape,
 * delete and the like), which have no place in a name and would follow it into texts and the CSV.
 */
export const personName = (z: typeof import("zod").z) =>
  z
    .string()
    .trim()
    .min(1, "is required")
    .max(100, "must be at most 100 characters")
    .refine((v) => !/\p{Cc}/u.test(v), "must not contain control characters");

/** Ids are positive integers; anything else in a path or query is a 400, never a lookup. */
export const idParam = (z: typeof import("zod").z) =>
  z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
    .transform(Number);

/** Ids in JSON bodies: the PWA sends numbers, but links and query parameters carry numeric text. */
export const jsonId = (z: typeof import("zod").z) =>
  z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), idParam(z)]);
