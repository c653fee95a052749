import type { ClientResponse } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { ErrorBody } from "../../api/lib/openapi.ts";
import type { ErrorCode } from "../../common/error-codes.ts";
import { noteAnswerSource, SERVED_OFFLINE_HEADER } from "./served-offline.ts";

// The half of pwa/lib/api.ts that needs no hono/client: replies, failures, image addresses. The home
// page's first call uses only this, so the client (a proxy over every route) loads with the pages
// that need it, not with the home page (docs/decisions/007-scale.md).

/**
 * Any error reply the server declares, as a union on `code`: each code with its own extra fields
 * (`gender` with `gender_sold_out`, `resultsAt` and `timeZone` with `results_not_yet`, …). Derived from
 * the server's declarations (api/lib/openapi.ts), never written here.
 */
export type ErrorReply = ErrorBody<ErrorCode>;

/**
 * A call's reply: its success data, or an error reply. `send` gives each call its own: `T` the
 * route's success body and `E` exactly the error bodies it declares, so `reply.data.code` names only
 * the codes that call can answer.
 */
export type ApiReply<T, E = ErrorReply> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; data: E };

/** What a typed call's response union says a success (or an error) carries. */
type Success<R> =
  R extends ClientResponse<infer T, infer S, infer _F> ? (S extends SuccessStatusCode ? T : never) : never;
type Failure<R> =
  R extends ClientResponse<infer T, infer S, infer _F> ? (S extends SuccessStatusCode ? never : T) : never;

export class CallFailed extends Error {
  constructor(cause: unknown) {
    super("the call could not be made", { cause });
  }
}

export async function callFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, { ...init, credentials: "same-origin" });
  } catch (error) {
    throw new CallFailed(error);
  }
  noteAnswerSource(response.headers.get(SERVED_OFFLINE_HEADER) === "1");
  return response;
}

/**
 * JSON as it comes off the wire: untyped. Its type is the route's declaration, which the server
 * checks every reply against outside production (api/lib/openapi.ts), so the replies below take it
 * from AppType instead of a cast.
 */
type Wire = Awaited<ReturnType<Response["json"]>>;

async function reply<T, E>(response: Response): Promise<ApiReply<T, E>> {
  let data: Wire;
  try {
    data = await response.json();
  } catch (error) {
    // Not JSON (a proxy's error page, say): not the API's answer, so the call failed.
    throw new CallFailed(error);
  }
  if (!data || typeof data !== "object") throw new CallFailed(new Error("the reply is not a JSON object or list"));
  return response.ok ? { ok: true, status: response.status, data } : { ok: false, status: response.status, data };
}

/** Makes one call and reads its reply, typed by the route's declared replies. */
export function send<R extends ClientResponse<unknown, number, "json">>(
  request: Promise<R>,
): Promise<ApiReply<Success<R>, Failure<R>>> {
  return request.then((response) => reply(response));
}

/** A reply with its success data put through `f` (an event's wire names mapped, say); a failure as it came. */
export const mapReply = <T, E, U>(reply: ApiReply<T, E>, f: (data: T) => U): ApiReply<U, E> =>
  reply.ok ? { ...reply, data: f(reply.data) } : reply;

/** Reads a response fetched without hono/client (the service worker's), typed as the route's `T`. */
export const readReply = <T>(response: Response): Promise<ApiReply<T>> => reply(response);

/**
 * A GET of `path` made without hono/client, for the home page's list; `T` is the route's own reply
 * type, `Ok<(typeof api)["get-events"]["$get"]>`, never written by hand.
 */
export const getJson = async <T>(path: `/api/${string}`): Promise<ApiReply<T>> => reply(await callFetch(path));

/** Where a stored image (event picture, attendee photo, thumbnail) is served from. */
export const imageUrl = (name: string) => `/api/images/${encodeURIComponent(name)}`;
