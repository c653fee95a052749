import type { ContentfulStatusCode } from "hono/utils/http-status";

/** A failure the client caused or can act on; mapped to its status in app.ts's one onError. */
export class DomainError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const BadRequest = (msg = "invalid request") => new DomainError(400, msg);
export const Unauthorized = (msg = "admin session required") => new DomainError(401, msg);
export const Forbidden = (msg = "not allowed") => new DomainError(403, msg);
export const NotFound = (msg = "not found") => new DomainError(404, msg);
export const Conflict = (msg: string, extra?: Record<string, unknown>) => new DomainError(409, msg, extra);
export const Gone = (msg = "no longer available") => new DomainError(410, msg);
export const TooLarge = (msg = "too large") => new DomainError(413, msg);
export const NotAnImage = (msg = "not an image (JPEG, PNG or WebP)") => new DomainError(415, msg);
export const TooManyRequests = (msg = "too many requests, try again later") => new DomainError(429, msg);
/** The payment or SMS provider failed; not the client's fault, so it is a 502 the PWA reports as a failed call. */
export const ProviderFailed = (msg: string) => new DomainError(502, msg);
