import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode } from "../../common/error-codes.ts";

/**
 * A failure the client caused or can act on; mapped to `{success:false, error, code}` with its status
 * in app.ts's one onError. `code` comes from common/error-codes.ts and is what clients branch on.
 */
export class DomainError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code: ErrorCode,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const BadRequest = (msg = "invalid request", code: ErrorCode = "invalid_request") =>
  new DomainError(400, msg, code);
export const Unauthorized = (msg = "admin session required", code: ErrorCode = "admin_session_required") =>
  new DomainError(401, msg, code);
export const Forbidden = (msg = "not allowed", code: ErrorCode = "forbidden") => new DomainError(403, msg, code);
export const NotFound = (msg = "not found") => new DomainError(404, msg, "not_found");
/** A conflict always names its reason: clients act on each one differently. */
export const Conflict = (msg: string, code: ErrorCode, extra?: Record<string, unknown>) =>
  new DomainError(409, msg, code, extra);
export const Gone = (msg = "no longer available") => new DomainError(410, msg, "gone");
export const TooLarge = (msg = "too large") => new DomainError(413, msg, "too_large");
export const NotAnImage = (msg = "not an image (JPEG, PNG or WebP)") => new DomainError(415, msg, "not_an_image");
export const TooManyRequests = (msg = "too many requests, try again later") =>
  new DomainError(429, msg, "rate_limited");
/** The payment or SMS provider failed; not the client's fault, so it is a 502 the PWA reports as a failed call. */
export const ProviderFailed = (msg: string) => new DomainError(502, msg, "provider_failed");
