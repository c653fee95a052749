import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { IMAGE_WIDTHS } from "../../common/image-widths.ts";
import { events } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { BadRequest } from "../lib/errors.ts";
import { apiRouter, errors, file, z } from "../lib/openapi.ts";
import { readImageVariant, readStoredImage, STORED_NAME } from "./images.ts";

// A stored name (`[a-f0-9]{32}.jpg` or `…-thumb.jpg`). Checked by the handler, not the schema: a name
// with `/`, `\` or `..` is a 400, any other unknown name a 404 (docs/api.md).
const nameParam = z.object({ name: z.string().openapi({ example: `${"0".repeat(32)}.jpg` }) });

// `?w=400`: the picture at a card's size, as WebP (docs/api.md).
const sizeQuery = z.object({
  w: z
    .enum(IMAGE_WIDTHS.map(String) as [string, ...string[]])
    .transform(Number)
    .optional(),
});

const JPEG = file("image/jpeg", "The stored JPEG (re-encoded without metadata)");
const WEBP = file("image/webp", "The picture at width `w` (never wider than stored), as WebP");
// Both paths serve any stored image, and refuse alike.
const IMAGE_ERRORS = errors("get", ["invalid_request", "not_found"], {
  400: "`invalid_request` (a name with `/`, `\\` or `..`, or another `w`).",
  404: "`not_found` (any other name that is not a stored image).",
});

const uploadsImageRoute = createRoute({
  method: "get",
  path: "/uploads/images/{name}",
  summary: "A stored image as JPEG (the same as /images/{name} without w)",
  description: [
    "The same as `GET /api/images/{name}`: both paths serve any stored image.",
    "",
    "- **Who:** public.",
    "- **200:** the image bytes, as `GET /api/images/{name}` answers them.",
  ].join("\n"),
  request: { params: nameParam },
  responses: { 200: JPEG, ...IMAGE_ERRORS },
});

const imageRoute = createRoute({
  method: "get",
  path: "/images/{name}",
  summary: "A stored image: the JPEG, or with w the WebP at that width (the event cards' srcset)",
  description: [
    "- **Who:** public.",
    "- **200:** the image bytes, `Content-Type: image/jpeg`; an event's picture with",
    "  `Cache-Control: public, max-age=31536000, immutable`, any other (an attendee's photo)",
    "  `Cache-Control: private, max-age=300`, so erasure reaches caches within minutes. Every stored image is a JPEG (uploads are",
    "  re-encoded, without metadata); `-thumb.jpg` is its 320 px thumbnail. With `w`, the image at that",
    "  width (never wider than stored) as WebP, `Content-Type: image/webp`: what the event cards show.",
    "  Variants are made on first request and kept in memory.",
  ].join("\n"),
  request: { params: nameParam, query: sizeQuery },
  responses: {
    200: {
      description: "The stored JPEG, or with `w` the picture at that width as WebP",
      content: { ...JPEG.content, ...WEBP.content },
    },
    ...IMAGE_ERRORS,
  },
});

// Event pictures are public and their names random and never reused: a year, immutable. Anything
// else stored here is a guest's photo, which erasure must be able to take back from browsers and
// proxies: private, and only for a few minutes.
const EVENT_PICTURE_CACHE = "public, max-age=31536000, immutable";
const ATTENDEE_PHOTO_CACHE = "private, max-age=300";

export const imagesRoutes = (deps: AppDeps) => {
  const isEventPicture = (name: string) =>
    deps.db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.imageName, name.replace(/-thumb\.jpg$/, ".jpg")))
      .limit(1)
      .get() !== undefined;
  const serve = async (name: string, width?: number) => {
    const bytes = width
      ? await readImageVariant(deps.env.UPLOADS_DIR, name, width as (typeof IMAGE_WIDTHS)[number])
      : await readStoredImage(deps.env.UPLOADS_DIR, name);
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": width ? "image/webp" : "image/jpeg",
        "cache-control": isEventPicture(name) ? EVENT_PICTURE_CACHE : ATTENDEE_PHOTO_CACHE,
        "x-content-type-options": "nosniff",
      },
    });
  };
  const checked = (name: string) => {
    if (!STORED_NAME.test(name) && /[/\\]|\.\./.test(name)) throw BadRequest("bad image name");
    return name;
  };
  return apiRouter()
    .openapi(uploadsImageRoute, (c) => serve(checked(c.req.valid("param").name)))
    .openapi(imageRoute, (c) => serve(checked(c.req.valid("param").name), c.req.valid("query").w));
};
