import type { ClientResponse } from "hono/client";
import type { ErrorCode } from "../../common/error-codes.ts";
import { SERVED_OFFLINE_HEADER } from "./served-offline.ts";
import { noteAnswerSource } from "./use-online.ts";

// The half of pwa/lib/api.ts that needs no hono/client: replies, failures, image addresses. The home
// page's first call uses only this, so the client (a proxy over every route) loads with the pages
// that need it, not with the home page (docs/decisions/007-scale.md).

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

/**
 * A GET of `path` made without hono/client, for the home page's list; `T` is the route's own reply
 * type, `Ok<(typeof api)["get-events"]["$get"]>`, never written by hand.
 */
export const getJson = <T>(path: `/api/${string}`) =>
  send<T>(callFetch(path) as unknown as Promise<ClientResponse<T, number, "json">>);

/** Where a stored image (event picture, attendee photo, thumbnail) is served from. */
export const imageUrl = (name: string) => `/api/images/${encodeURIComponent(name)}`;
