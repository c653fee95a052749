import { hc, type InferResponseType } from "hono/client";
import type { AppType } from "../../api/app.ts";
import { callFetch } from "./api-reply.ts";

export { type ApiReply, CallFailed, type ErrorReply, getJson, imageUrl, mapReply, send } from "./api-reply.ts";

/**
 * The PWA's one way to call the API: `api` is hono/client's `hc` over the server's own route types
 * (AppType), so a call's path, its input and its reply are the server's, and a renamed field fails
 * the typecheck. `send` turns a call into an `ApiReply`: a reply the server sent (any status) comes
 * back as data, so pages can show the product's "success false" message; only a call that could not
 * be made at all (offline, DNS, aborted, an answer that is not the API's) throws `CallFailed`, for the
 * "call failed" message. The reference for every call is docs/api.md. `send` and the reply types live
 * in ./api-reply.ts, which the home page loads without hono/client (docs/decisions/007-scale.md).
 */

/** The API's calls, typed by the server's routes: `api["get-events"].$get()`. */
export const api = hc<AppType>("/", { fetch: callFetch }).api;

/** A call's success reply, as the server declares it: `Ok<typeof api["get-events"]["$get"]>`. */
export type Ok<Call> = InferResponseType<Call, 200>;
