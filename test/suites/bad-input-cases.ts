import { asText, type Field, HOSTILE, HUGE, maybeValid, RAW_SEGMENTS } from "./hostile.ts";
import type { RawRequest } from "./http.ts";
import { multipart, type Part } from "./http.ts";

/** One row of the bad-input suite's endpoint table. */
export type Endpoint = {
  method: "GET" | "POST";
  /** With `:name` placeholders filled from `params`. */
  path: string;
  params?: Record<string, Field>;
  query?: Record<string, Field>;
  body?: { type: "json" | "multipart"; fields: Record<string, Field> };
  /** 401 without the admin session. */
  admin?: boolean;
  /** The well-formed base request succeeds: with `"always"` or with the admin session (`"admin"`). */
  baseSucceeds?: "always" | "admin";
  /** The reply a well-formed request about nothing gets when it is not an error (confirm-booking's "no"). */
  goodAnswer?: (status: number, body: unknown) => boolean;
  /** Its success is not JSON (the API reference page and its script); its errors still are. */
  nonJson?: true;
  /** Every body field is optional, so `{}` is a legal request (sign-out-everywhere's own sessions). */
  emptyIsLegal?: true;
  /** The path also serves the other method (GET and POST /api/team), so "wrong method" may be legal. */
  otherMethodServed?: true;
};

/**
 * - `bad`: certainly invalid, so the answer must be a 4xx `{success:false, error}`.
 * - `maybe`: could be legal (a name that is an SQL string, a harmless extra field): any answer but a
 *   5xx, and if it is an error it must have the error body. Never sent where the base request
 *   succeeds, since a legal request may then rightly change data.
 */
export type Case = { label: string; req: RawRequest; expect: "bad" | "maybe" };

const BOUNDARY = "----sdtBoundary7MA4YWxkTrZu0gW";
const MP = `multipart/form-data; boundary=${BOUNDARY}`;

const MALFORMED_JSON = [
  "{",
  '{"phone":',
  "{'phone': '0412345678'}",
  "",
  "{}}",
  '{"a":1,}',
  "[1,",
  "nul",
  "NaN",
  "\u0000",
  '{"a":1} trailing',
  "\uFEFF{}",
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"unterminated}',
];
const NON_OBJECT_JSON = ["[]", "[{}]", "42", "-1", "1e999", "null", "true", '"text"', '"{}"'];

function junkBodies(): [string, string | Uint8Array][] {
  // Deterministic noise, so a failure can be reproduced.
  let x = 0x2545f491;
  const noise = new Uint8Array(512).map(() => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  });
  return [
    ["random bytes", noise],
    ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x00, 0x7d])],
    ["XML", '<?xml version="1.0"?><a>1</a>'],
    ["form-encoded text", "phone=0412345678&countryCode=%2B61"],
    ["multipart text", `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`],
  ];
}

const WRONG_CONTENT_TYPES = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/xml",
  "",
];

/** Images that are not acceptable photos, each named .jpg and sent as image/jpeg. */
export function notPhotos(jpeg: Uint8Array): [string, Uint8Array][] {
  const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
  return [
    ["text file named .jpg", Buffer.from("hello, this is not a picture\n")],
    ["HTML named .jpg", Buffer.from("<!doctype html><script>alert(1)</script>")],
    [
      "SVG with a script",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="9"/></svg>'),
    ],
    ["GIF", gif],
    ["truncated JPEG", jpeg.slice(0, 300)],
    ["JPEG header then garbage", Buffer.concat([Buffer.from(jpeg.slice(0, 20)), Buffer.alloc(2000, 0x41)])],
    ["empty file", new Uint8Array(0)],
  ];
}

const omit = (o: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/** All the bad requests for one endpoint. `live`: the base request succeeds, so only certain-bad cases go. */
export function casesFor(ep: Endpoint, live: boolean, jpeg: Uint8Array): Case[] {
  const cases: Case[] = [];
  const baseParams = Object.fromEntries(Object.entries(ep.params ?? {}).map(([k, f]) => [k, asText(f.base)]));
  const baseQuery = Object.fromEntries(Object.entries(ep.query ?? {}).map(([k, f]) => [k, asText(f.base)]));
  const url = (params: Record<string, string> = {}, query: string | null = null) => {
    let path = ep.path;
    for (const [k, v] of Object.entries({
      ...Object.fromEntries(Object.entries(baseParams).map(([k, v]) => [k, encodeURIComponent(v)])),
      ...params,
    })) {
      path = path.replace(`:${k}`, v);
    }
    const q =
      query ??
      Object.entries(baseQuery)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join("&");
    return q ? `${path}?${q}` : path;
  };
  const add = (label: string, req: Partial<RawRequest>, maybe = false) => {
    if (maybe && live) return;
    cases.push({ label, req: { method: ep.method, path: url(), ...req }, expect: maybe ? "maybe" : "bad" });
  };
  // URLs longer than Node's 16 KB header limit are refused by Node itself (431) before the app sees them.
  const forUrl = (v: unknown) => asText(v === HUGE ? "A".repeat(10_000) : v);
  // A lone surrogate has no UTF-8 form; in a URL it travels as the bytes a careless encoder would write.
  const enc = (text: string) => {
    try {
      return encodeURIComponent(text);
    } catch {
      return "%ED%A0%80";
    }
  };
  const baseOk = Boolean(ep.baseSucceeds);

  for (const [name, field] of Object.entries(ep.params ?? {})) {
    for (const [label, v] of HOSTILE) {
      add(`${name}: ${label}`, { path: url({ [name]: enc(forUrl(v)) }) }, maybeValid(field, forUrl(v)));
    }
    for (const raw of RAW_SEGMENTS) {
      let decoded: string = raw;
      try {
        decoded = decodeURIComponent(raw);
      } catch {}
      add(`${name}: raw ${raw}`, { path: url({ [name]: raw }) }, maybeValid(field, decoded));
    }
  }
  for (const [name, field] of Object.entries(ep.query ?? {})) {
    const others = Object.entries(baseQuery).filter(([k]) => k !== name);
    const q = (value: string) =>
      [...others.map(([k, v]) => `${k}=${encodeURIComponent(v)}`), `${name}=${value}`].join("&");
    for (const [label, v] of HOSTILE) {
      add(`${name}: ${label}`, { path: url({}, q(enc(forUrl(v)))) }, maybeValid(field, forUrl(v)));
    }
    for (const raw of RAW_SEGMENTS) add(`${name}: raw ${raw}`, { path: url({}, q(raw)) });
    // An optional query field may be left out (a report's `format`): then the call may succeed.
    add(
      `${name}: missing`,
      { path: url({}, others.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")) },
      field.optional === true,
    );
    add(`${name}: repeated`, { path: url({}, `${q("x")}&${name}=${encodeURIComponent(asText(field.base))}`) }, true);
  }
  add(
    "junk query",
    { path: url({}, `${url().split("?")[1] ?? ""}&__proto__[admin]=1&%=%&a=${"b".repeat(10_000)}`) },
    true,
  );
  add("wrong method", { method: ep.method === "GET" ? "POST" : "GET" }, ep.otherMethodServed === true);
  // Headers are input too: forged and junk cookies stand in for the session, never beside it.
  const headerCases: [string, Record<string, string>][] = [
    ["forged admin cookie", { cookie: "sdt_admin=admin.9999999999999.forgedsignature" }],
    ["forged phone cookie", { cookie: "sdt_phone=%2B61412345678.9999999999999.forged" }],
    ["junk cookies", { cookie: "sdt_admin=%E0%A4%A; sdt_phone=..%2F..%2Fetc; =;;; a" }],
    ["8 KB cookie", { cookie: `sdt_admin=${"a".repeat(8_000)}` }],
    ["junk forwarded-for", { "x-forwarded-for": "'; DROP TABLE rate_limit_hits; --, ::ffff:999.1.1.1" }],
    ["junk accept-encoding", { "accept-encoding": "br;q=abc, gzip;q=-1, *;q=NaN" }],
  ];
  for (const [label, headers] of headerCases) {
    const forged = label.startsWith("forged admin") || label === "junk cookies" || label === "8 KB cookie";
    add(label, { headers }, !(ep.admin && forged));
  }

  if (ep.method !== "POST") return cases;

  // Every POST, whatever it reads, must refuse a body over the limit.
  add("2 MB JSON body", {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ a: "x".repeat(2_000_000) }),
  });

  const fields = ep.body?.fields ?? {};
  const base = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.base]));
  if (!ep.body || ep.body.type === "json") {
    const json = (label: string, body: string | Uint8Array, maybe = false, contentType = "application/json") =>
      add(label, { headers: contentType ? { "content-type": contentType } : {}, body }, maybe);
    // Endpoints that read no body answer as for their base request: fine unless that is a 5xx.
    const noBody = !ep.body;
    for (const [i, m] of MALFORMED_JSON.entries()) {
      json(`malformed JSON #${i} ${JSON.stringify(m.slice(0, 20))}`, m, noBody && baseOk);
    }
    for (const n of NON_OBJECT_JSON) json(`JSON ${n} instead of an object`, n, noBody && baseOk);
    for (const [label, body] of junkBodies()) json(`junk with a JSON type: ${label}`, body, noBody && baseOk);
    if (!ep.body) return cases;

    for (const type of WRONG_CONTENT_TYPES)
      json(`JSON sent as ${type || "no content type"}`, JSON.stringify(base), false, type);
    json("JSON with a charset", JSON.stringify(base), true, "application/json; charset=utf-8");
    json("empty object", "{}", ep.emptyIsLegal === true);
    for (const [name, field] of Object.entries(fields)) {
      if (!field.optional) json(`missing ${name}`, JSON.stringify(omit(base, name)));
      for (const [label, v] of HOSTILE)
        json(`${name}: ${label}`, JSON.stringify({ ...base, [name]: v }), maybeValid(field, v));
      json(
        `${name}: 1e999`,
        JSON.stringify({ ...base, [name]: "__INF__" }).replace('"__INF__"', "1e999"),
        maybeValid(field, Infinity),
      );
    }
    const rest = JSON.stringify(base).slice(1, -1);
    const tail = rest ? `,${rest}}` : "}";
    json("prototype pollution", `{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}${tail}`, true);
    json("20,000-deep nesting", `{"deep":${"[".repeat(20_000)}${"]".repeat(20_000)}${tail}`, true);
    return cases;
  }

  // Multipart.
  const fileField = Object.entries(fields).find(([, f]) => f.kind === "file")?.[0] ?? "image";
  const parts = (override: Record<string, Part | null> = {}): Part[] =>
    Object.entries(fields).flatMap(([name, f]): Part[] => {
      if (name in override) {
        const p = override[name];
        return p ? [p] : [];
      }
      return f.kind === "file"
        ? [{ name, filename: "me.jpg", type: "image/jpeg", data: jpeg }]
        : [{ name, value: asText(f.base) }];
    });
  const mp = (label: string, p: Part[], maybe = false) =>
    add(label, { headers: { "content-type": MP }, body: multipart(p, BOUNDARY) }, maybe);
  const raw = (label: string, contentType: string, body: string | Uint8Array) =>
    add(label, { headers: contentType ? { "content-type": contentType } : {}, body });

  for (const [name, field] of Object.entries(fields)) {
    if (!field.optional) mp(`missing ${name}`, parts({ [name]: null }));
    if (field.kind === "file") continue;
    for (const [label, v] of HOSTILE) {
      mp(`${name}: ${label}`, parts({ [name]: { name, value: asText(v) } }), maybeValid(field, asText(v)));
    }
  }
  mp(`${fileField} sent as a text field`, parts({ [fileField]: { name: fileField, value: "hello" } }));
  mp(
    `${fileField} sent as a text field holding a file name`,
    parts({ [fileField]: { name: fileField, value: "me.jpg" } }),
  );
  for (const [label, data] of notPhotos(jpeg)) {
    mp(
      `${fileField}: ${label}`,
      parts({ [fileField]: { name: fileField, filename: "me.jpg", type: "image/jpeg", data } }),
    );
  }
  mp(
    `${fileField}: text under a traversal file name`,
    parts({
      [fileField]: {
        name: fileField,
        filename: "../../../../tmp/sdt-evil.jpg",
        type: "image/jpeg",
        data: Buffer.from("x"),
      },
    }),
  );
  mp(
    `${fileField}: over 5 MB`,
    parts({
      [fileField]: {
        name: fileField,
        filename: "big.jpg",
        type: "image/jpeg",
        data: Buffer.concat([Buffer.from(jpeg), Buffer.alloc(5_242_881 - jpeg.length)]),
      },
    }),
  );
  mp(`${fileField} twice`, [...parts(), { name: fileField, filename: "b.jpg", type: "image/jpeg", data: jpeg }], true);

  const good = multipart(parts(), BOUNDARY);
  raw("multipart with a different boundary in the body", "multipart/form-data; boundary=OTHERBOUNDARY", good);
  raw("multipart truncated mid-file", MP, good.subarray(0, Math.floor(good.length * 0.6)));
  const lenient = (label: string, body: string | Uint8Array) =>
    add(label, { headers: { "content-type": MP }, body }, true);
  // A lenient parser may read these two; that is no bug, so they only go where the base request fails.
  lenient("multipart without its closing boundary", good.subarray(0, good.length - BOUNDARY.length - 6));
  lenient("multipart with LF line endings", good.toString("latin1").replaceAll("\r\n", "\n"));
  raw("multipart without a boundary parameter", "multipart/form-data", good);
  raw("multipart with an empty boundary", "multipart/form-data; boundary=", good);
  raw("multipart with an empty body", MP, "");
  raw("multipart type with garbage", MP, "garbage ".repeat(100));
  raw(
    "multipart part without a name",
    MP,
    `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  );
  raw(
    "multipart part with a 20 KB header",
    MP,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"; x="${"y".repeat(20_000)}"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  );
  raw("JSON sent to a multipart call", "application/json", JSON.stringify(base));
  raw(
    "form-encoded fields without the photo",
    "application/x-www-form-urlencoded",
    new URLSearchParams(
      Object.entries(fields)
        .filter(([, f]) => f.kind !== "file")
        .map(([k, f]) => [k, asText(f.base)]),
    ).toString(),
  );
  raw("6 MB multipart body", MP, multipart([...parts(), { name: "pad", value: "p".repeat(6_000_000) }], BOUNDARY));
  return cases;
}
