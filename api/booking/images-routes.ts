import { Hono } from "hono";
import { z } from "zod";
import { IMAGE_WIDTHS } from "../../common/image-widths.ts";
import type { AppDeps } from "../deps.ts";
import { BadRequest } from "../lib/errors.ts";
import { validate } from "../lib/validate.ts";
import { readImageVariant, readStoredImage, STORED_NAME } from "./images.ts";

// `?w=400`: the picture at a card's size, as WebP (docs/api.md).
const sizeQuery = z.object({
  w: z
    .enum(IMAGE_WIDTHS.map(String) as [string, ...string[]])
    .transform(Number)
    .optional(),
});

export const imagesRoutes = (deps: AppDeps) => {
  const serve = async (name: string, width?: number) => {
    // Names are random and never reused, so a year-long, immutable cache is safe.
    const bytes = width
      ? await readImageVariant(deps.env.UPLOADS_DIR, name, width as (typeof IMAGE_WIDTHS)[number])
      : await readStoredImage(deps.env.UPLOADS_DIR, name);
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": width ? "image/webp" : "image/jpeg",
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
      },
    });
  };
  const checked = (name: string) => {
    if (!STORED_NAME.test(name) && /[/\\]|\.\./.test(name)) throw BadRequest("bad image name");
    return name;
  };
  return new Hono()
    .get("/uploads/images/:name", (c) => serve(checked(c.req.param("name"))))
    .get("/images/:name", validate("query", sizeQuery), (c) =>
      serve(checked(c.req.param("name")), c.req.valid("query").w),
    );
};
