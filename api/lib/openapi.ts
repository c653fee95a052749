import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { type Hook, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Env, MiddlewareHandler } from "hono";
import type { ClientErrorStatusCode, ServerErrorStatusCode } from "hono/utils/http-status";
import { ERROR_CODES, type ErrorCode } from "../../common/error-codes.ts";
import { BadRequest } from "./errors.ts";
import { issueMessage } from "./validate.ts";

// The contract as schemas (docs/decisions/026-contract-as-schemas.md). Every route is declared with
// @hono/zod-openapi's createRoute: its request, its replies and its error codes as zod schemas. The
// same declarations type the PWA's client (AppType carries each status's body), generate
// /api/openapi.json, and check every reply in development and in the tests (checkReplies below).

export { z };

/**
 * A router for one room's routes. A request that fails its declared schema is a 400
 * `invalid_request` whose `error` says in words what is wrong with the first bad field
 * (api/lib/validate.ts), thrown to the app's one onError.
 */
export const apiRouter = <E extends Env = Env>() => new OpenAPIHono<E>({ defaultHook: refuseInvalid<E>() });

const refuseInvalid =
  <E extends Env>(): Hook<unknown, E, string, undefined> =>
  (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      throw BadRequest(issue ? issueMessage(issue) : "The request is not valid.");
    }
  };

type ErrorStatus = ClientErrorStatusCode | ServerErrorStatusCode;

/**
 * Each error code's one status (docs/api.md's "Error codes" table says the same, and a test holds
 * them together): a route lists its codes, and the statuses follow.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  doors_not_open: 400,
  doors_after_start: 400,
  wrong_code: 400,
  code_expired: 400,
  admin_session_required: 401,
  invalid_credentials: 401,
  host_access_ended: 401,
  guest_session_required: 401,
  second_factor_required: 401,
  pass_not_authorized: 401,
  choice_link_invalid: 401,
  phone_not_verified: 403,
  invalid_link: 403,
  not_a_participant: 403,
  forbidden: 403,
  cross_origin: 403,
  host_link_not_open: 403,
  not_found: 404,
  booking_closed: 409,
  not_taking_bookings: 409,
  already_booked: 409,
  sold_out: 409,
  gender_sold_out: 409,
  seat_free: 409,
  already_waiting: 409,
  already_holding: 409,
  hold_expired: 409,
  already_paid: 409,
  payment_not_completed: 409,
  payment_mismatch: 409,
  refunded: 409,
  not_paid: 409,
  wrong_state: 409,
  seats_taken: 409,
  feedback_not_open: 409,
  event_cancelled: 409,
  too_late_to_cancel: 409,
  credit_closed: 409,
  credit_changed: 409,
  booking_cancelled: 409,
  results_not_yet: 409,
  ratings_closed: 409,
  format_locked: 409,
  rated_by_guest: 409,
  age_out_of_range: 409,
  promo_not_found: 409,
  promo_expired: 409,
  promo_used_up: 409,
  promo_wrong_gender: 409,
  promo_code_taken: 409,
  stale_state: 409,
  room_too_large: 409,
  doors_in_use: 409,
  not_checked_in: 409,
  email_taken: 409,
  transfer_own_number: 409,
  transfer_has_ticket: 409,
  transfer_doors_open: 409,
  not_transferable: 409,
  transfer_ended: 409,
  transfer_wrong_side: 409,
  already_chosen: 409,
  not_enough_seats: 409,
  no_second_factor: 409,
  gone: 410,
  setup_link_invalid: 410,
  too_large: 413,
  not_an_image: 415,
  rate_limited: 429,
  account_locked: 429,
  provider_failed: 502,
  internal_error: 500,
} as const satisfies Record<ErrorCode, ErrorStatus>;

const isoTime = z.iso.datetime({ offset: true });

/** The fields a few error replies add after `success`, `error` and `code` (docs/api.md, "Errors"). */
const ERROR_EXTRAS = {
  gender_sold_out: { gender: z.enum(["male", "female"]) },
  transfer_wrong_side: { gender: z.enum(["male", "female", "nonbinary", "unasked"]) },
  already_booked: { alreadyBooked: z.literal(true) },
  already_chosen: { choice: z.enum(["refund", "credit", "move"]) },
  age_out_of_range: { fromAge: z.number().int().nullable(), toAge: z.number().int().nullable() },
  seats_taken: { takenSeats: z.number().int() },
  doors_not_open: { doorsOpenAt: isoTime, timeZone: z.string() },
  host_link_not_open: { doorsOpenAt: isoTime, timeZone: z.string() },
  results_not_yet: { resultsAt: isoTime, timeZone: z.string() },
  room_too_large: { present: z.object({ female: z.number().int(), male: z.number().int() }), limit: z.number().int() },
} as const;
type Extras = typeof ERROR_EXTRAS;

const errorSchemas = new Map<ErrorCode, z.ZodType>();

/**
 * One error code's reply, exactly: a field it does not declare is a mismatch too. One schema per
 * code, named (`Error_sold_out`), so the document lists it once under components and refers to it.
 */
const errorSchema = <C extends ErrorCode>(code: C) => {
  let schema = errorSchemas.get(code);
  if (!schema) {
    schema = z
      .strictObject({
        success: z.literal(false),
        error: z.string().min(1),
        code: z.literal(code),
        ...(code in ERROR_EXTRAS ? ERROR_EXTRAS[code as keyof Extras] : {}),
      })
      .openapi(`Error_${code}`, { description: ERROR_CODES[code] });
    errorSchemas.set(code, schema);
  }
  return schema as unknown as z.ZodType<ErrorBody<C>>;
};

/** The body of an error reply with code C, as the PWA's client sees it. */
export type ErrorBody<C extends ErrorCode> = C extends keyof Extras
  ? { success: false; error: string; code: C } & { [K in keyof Extras[C]]: z.output<Extras[C][K]> }
  : { success: false; error: string; code: C };

type StatusOf<C extends ErrorCode> = (typeof ERROR_STATUS)[C];
type CodesOf<C extends ErrorCode, S> = C extends ErrorCode ? (StatusOf<C> extends S ? C : never) : never;

/** The error responses of a route, one per status, each the union of that status's codes. */
export type ErrorResponses<C extends ErrorCode> = {
  [S in StatusOf<C>]: {
    description: string;
    content: { "application/json": { schema: z.ZodType<ErrorBody<CodesOf<C, S>>> } };
  };
};

/** Codes every call may answer (docs/api.md, "Errors"): a bug on the server. */
const ANY_CALL = ["internal_error"] as const;
/**
 * Codes every call with a body may answer: a body too large or not readable (413, 400), or sent
 * from another site's page (403, api/lib/same-origin.ts).
 */
const WITH_BODY = ["invalid_request", "too_large", "cross_origin"] as const;
export const COMMON_ERRORS = { any: ANY_CALL, withBody: WITH_BODY } as const;

/** Why a route refuses, in its own words, by status (`{ 409: "\`wrong_state\` (ended or cancelled)." }`). */
export type Refusals = Partial<Record<number, string>>;

/**
 * A route's error responses from the codes it answers, listed by code; their statuses follow from
 * ERROR_STATUS. `method` adds the codes every call of that kind may answer: pass "post" for a call
 * with a body. Each status's description names its codes with their meaning; `refusals` adds, for a
 * status, why this route answers it (the reference's text, docs/api.md "How to read the reference").
 */
export function errors<const C extends readonly ErrorCode[]>(
  method: "get",
  codes: C,
  refusals?: Refusals,
): ErrorResponses<C[number] | (typeof ANY_CALL)[number]>;
export function errors<const C extends readonly ErrorCode[]>(
  method: "post",
  codes: C,
  refusals?: Refusals,
): ErrorResponses<C[number] | (typeof ANY_CALL)[number] | (typeof WITH_BODY)[number]>;
export function errors(method: "get" | "post", codes: readonly ErrorCode[], refusals: Refusals = {}) {
  const all = new Set<ErrorCode>([...codes, ...ANY_CALL, ...(method === "post" ? WITH_BODY : [])]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const status of Object.keys(refusals).map(Number)) {
    if (!byStatus.has(status)) throw new Error(`errors: a refusal for ${status}, which none of the codes answers`);
  }
  const responses: Record<number, unknown> = {};
  for (const [status, list] of byStatus) {
    const schemas = list.map((code) => errorSchema(code));
    const schema = schemas.length === 1 ? schemas[0] : z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    const meanings = list.map((code) => `\`${code}\`: ${ERROR_CODES[code]}`).join("; ");
    const why = refusals[status];
    responses[status] = {
      description: why ? `${meanings}.\n\nHere: ${why}` : meanings,
      content: { "application/json": { schema } },
    };
  }
  return responses;
}

/** A JSON reply of `schema`, for a route's `responses`. */
export const json = <T extends z.ZodType>(schema: T, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});

/** A JSON request body of `schema`, for a route's `request`: required, so any other body is a 400. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

/** A multipart form body of `schema` (a photo with its fields), for a route's `request`. */
export const formBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "multipart/form-data": { schema } }, required: true },
});

/** A reply that is not JSON (an image, a CSV file, an HTML page), by its media type. */
export const file = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string().openapi({ format: "binary" }) } } as Record<
    string,
    { schema: z.ZodType }
  >,
});

/** `{success: true}` and nothing else: the reply of a call that only does something. */
export const done = z.strictObject({ success: z.literal(true) });

/** A file field of a multipart form: a File at run time, `format: binary` in the document. */
export const fileField = () =>
  z.instanceof(File, { message: "must be a file" }).openapi({ type: "string", format: "binary" });

// ---------------------------------------------------------------------------------------------------
// Checking replies against their declarations.

type RouteDefinition = {
  method: string;
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

type ReplyTable = { method: string; pattern: RegExp; route: RouteDefinition }[];

/** The declared routes of an app, as OpenAPI paths (`/api/admin-event/{id}`) with their responses. */
export function declaredRoutes(app: OpenAPIHono<Env>): RouteDefinition[] {
  return app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === "route" ? [d.route as unknown as RouteDefinition] : [],
  );
}

function replyTable(routes: RouteDefinition[]): ReplyTable {
  return routes.map((route) => ({
    method: route.method.toUpperCase(),
    pattern: new RegExp(
      `^${route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "[^/]+")}$`,
    ),
    route,
  }));
}

export type ReplyMismatch = { route: string; status: number; problem: string };

/**
 * Compares one reply with what its route declares: its status must be declared, its media type too,
 * and a JSON body must parse by the status's schema. Undefined when it matches, or when the path is
 * not a declared route (an unknown path's 404, the PWA's files).
 */
export async function checkReply(
  table: ReplyTable,
  method: string,
  path: string,
  response: Response,
  readBody: () => Promise<ArrayBuffer>,
): Promise<ReplyMismatch | undefined> {
  const m = method === "HEAD" ? "GET" : method;
  const entry = table.find((e) => e.method === m && e.pattern.test(path));
  if (!entry) return undefined;
  const route = `${entry.method} ${entry.route.path}`;
  const status = response.status;
  // A conditional GET's "not modified" carries no body: the 200 it stands for was declared.
  if (status === 304) return undefined;
  const declared = entry.route.responses[String(status)];
  if (!declared) return { route, status, problem: `status ${status} is not declared` };
  const content = declared.content ?? {};
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (Object.keys(content).length === 0) {
    return mediaType === "" || response.body === null
      ? undefined
      : { route, status, problem: `a ${mediaType} body where none is declared` };
  }
  const media = content[mediaType];
  if (!media) return { route, status, problem: `${mediaType || "no content type"} is not declared` };
  if (mediaType !== "application/json" || method === "HEAD") return undefined;
  const schema = media.schema as z.ZodType;
  let body: unknown;
  try {
    body = JSON.parse(decodedText(Buffer.from(await readBody()), response.headers.get("content-encoding")));
  } catch {
    return { route, status, problem: "the body is not JSON" };
  }
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return {
    route,
    status,
    problem: `${issue?.path.join(".") || "(body)"}: ${issue?.message ?? "does not match"}`,
  };
}

/** The body as text, undoing the content encoding a route or the compressor applied. */
function decodedText(bytes: Buffer, encoding: string | null): string {
  if (encoding === "br") return brotliDecompressSync(bytes).toString("utf8");
  if (encoding === "gzip") return gunzipSync(bytes).toString("utf8");
  if (encoding === "deflate") return inflateSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

/** The message a reply that does not match its declaration is logged with. */
export const REPLY_MISMATCH = "reply does not match its declared schema";

/**
 * Middleware that checks every reply of a declared route against its declaration, and logs a
 * warning naming the route when it does not match (development and tests; production skips it).
 * The test harness fails a suite on any such warning (test/api-harness.ts).
 */
export function checkReplies(
  routes: () => RouteDefinition[],
  warn: (message: string, fields: ReplyMismatch) => void,
): MiddlewareHandler {
  let table: ReplyTable | undefined;
  return async (c, next) => {
    await next();
    table ??= replyTable(routes());
    const reply = c.res;
    const mismatch = await checkReply(table, c.req.method, c.req.path, reply, async () => {
      // Read once and put back (not Response.clone(): @hono/node-server's fast path then drops the
      // headers set after the reply was made).
      // The headers are copied first: a reply made with plain-object headers loses those added after
      // it was made once its body is read.
      const headers = new Headers(reply.headers);
      const bytes = await reply.arrayBuffer();
      c.res = new Response(bytes, { status: reply.status, statusText: reply.statusText, headers });
      return bytes;
    });
    if (mismatch) warn(REPLY_MISMATCH, mismatch);
  };
}
