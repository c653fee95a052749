import { availableParallelism } from "node:os";
import { onFirstUse } from "./on-first-use.ts";

/**
 * sharp (libvips), loaded at the first picture the server works on, not at its start
 * (on-first-use.ts): a server that is never sent a photo does not spend its load.
 *
 * One photo is worked on by one thread: libvips would otherwise spread each image over every core,
 * and the core left to answer requests (save-details-routes.ts's photoTurn, decision 007) with it.
 */
export const loadSharp = onFirstUse(async () => {
  const { default: sharp } = await import("sharp");
  sharp.concurrency(Math.max(1, availableParallelism() - 1));
  return sharp;
});
