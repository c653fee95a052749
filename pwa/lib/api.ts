import { SERVED_OFFLINE_HEADER } from "./served-offline.ts";
import { noteAnswerSource } from "./use-online.ts";

/**
 * The PWA's one way to call the API. A reply the server sent (any status) comes back as `ApiReply`
 * so pages can show SPEC.md's "success false" message; only a call that could not be made at all
 * (offline, DNS, aborted) throws `CallFailed`, for SPEC.md's "call failed" message.
 */
export type ApiReply<T> = { ok: boolean; status: number; data: T };

export class CallFailed extends Error {
  constructor(cause: unknown) {
    super("the call could not be made", { cause });
  }
}

type Body = Record<string, unknown> | FormData;

async function call<T>(method: "GET" | "POST", url: string, body?: Body, signal?: AbortSignal): Promise<ApiReply<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body && !(body instanceof FormData) ? { "content-type": "application/json" } : undefined,
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      signal,
    });
  } catch (error) {
    throw new CallFailed(error);
  }
  noteAnswerSource(response.headers.get(SERVED_OFFLINE_HEADER) === "1");
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): treat it as a failed call, not a reply.
    if (!response.ok) throw new CallFailed(new Error(`HTTP ${response.status}`));
  }
  return { ok: response.ok, status: response.status, data: data as T };
}

export const apiGet = <T>(url: string, signal?: AbortSignal) => call<T>("GET", url, undefined, signal);
export const apiPost = <T>(url: string, body: Body, signal?: AbortSignal) => call<T>("POST", url, body, signal);

/** Where a stored image (event picture, attendee photo, thumbnail) is served from. */
export const imageUrl = (name: string) => `/api/images/${encodeURIComponent(name)}`;

/** The error text of a failed reply, for the few places that show it. */
export const replyError = (data: unknown): string | undefined =>
  data && typeof data === "object" && "error" in data && typeof data.error === "string" ? data.error : undefined;
