import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import { BadRequest } from "../lib/errors.ts";
import { readStoredImage, STORED_NAME } from "../services/images.ts";

export const imagesRoutes = (deps: AppDeps) => {
  const serve = async (name: string) => {
    // Names are random and never reused, so a year-long, immutable cache is safe.
    const bytes = await readStoredImage(deps.env.UPLOADS_DIR, name);
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": "image/jpeg",
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
    .get("/images/:name", (c) => serve(checked(c.req.param("name"))));
};
