import { type ClientResponse, hc, type InferResponseType } from "hono/client";
import type { AppType } from "../../api/app.ts";
import type { ErrorCode } from "../../common/error-codes.ts";
import { SERVED_OFFLINE_HEADER } from "./served-offline.ts";
import { noteAnswerSource } from "./use-online.ts";

/**
 * The PWA's one way to call the API: `api` is hono/client's `hc` over the server's own route types
 * (AppType), so a call's path, its input and its reply are the server's, and a renamed field fails
 * the typecheck. `send` turns a call into an `ApiReply`: a reply the server sent (any status) comes
 * back as data, so pages can show the product's "success false" message; only a call that could not
 * be made at all (offline, DNS, aborted, an answer that is not the API's) throws `CallFailed`, for the
 * "call failed" message. The reference for every call is docs/api.md.
 */

/** What an error reply carries: the person's `error`, the machine `code`, and a few named extras. */
export type ErrorData = {
  success?: false;
  error?: string;
  code?: ErrorCode;
  /** gender_sold_out: the gender whose seats are gone. */
  gender?: "male" | "female";
  /** already_booked */
  alreadyBooked?: boolean;
  /** seats_taken */
  takenSeats?: number;
  /** results_not_yet: when the matches are released (ISO, UTC), and the venue's zone to show it in. */
  resultsAt?: string;
  timeZone?: string;
};

export type ApiReply<T> = { ok: true; status: number; data: T } | { ok: false; status: number; data: ErrorData };

export class CallFailed extends Error {
  constructor(cause: unknown) {
    super("the call could not be made", { cause });
  }
}

async function callFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, { ...init, credentials: "same-origin" });
  } catch (error) {
    throw new CallFailed(error);
  }
  noteAnswerSource(response.headers.get(SERVED_OFFLINE_HEADER) === "1");
  return response;
}

/** The API's calls, typed by the server's routes: `api["get-events"].$get()`. */
export const api = hc<AppType>("/", { fetch: callFetch }).api;

/** Makes one call and reads its reply. */
export async function send<T>(request: Promise<ClientResponse<T, number, "json">>): Promise<ApiReply<T>> {
  const response = await request;
  let data: unknown;
  try {
    data = await response.json();
  } catch (error) {
    // Not JSON (a proxy's error page, say): not the API's answer, so the call failed.
    throw new CallFailed(error);
  }
  if (response.ok) return { ok: true, status: response.status, data: data as T };
  return { ok: false, status: response.status, data: data && typeof data === "object" ? (data as ErrorData) : {} };
}

/** Where a stored image (event picture, attendee photo, thumbnail) is served from. */
export const imageUrl = (name: string) => `/api/images/${encodeURIComponent(name)}`;

/** A call's success reply, as the server declares it: `Ok<typeof api["get-events"]["$get"]>`. */
export type Ok<Call> = InferResponseType<Call, 200>;
