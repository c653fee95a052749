import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readMultipart } from "./multipart.ts";

const boundary = "----xyz";
const type = `multipart/form-data; boundary=${boundary}`;
const part = (name: string, value: string, b = boundary) =>
  `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, fileName: string, bytes: string, b = boundary) =>
  `--${b}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: image/jpeg\r\n\r\n${bytes}\r\n`;
const end = (b = boundary) => `--${b}--\r\n`;

/** A request body that arrives in the pieces given, as a slow upload would; `cancelled` once read no further. */
function webBody(pieces: string[]) {
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
      controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

/** A form's entries as plain values: text as it is, a file as `name: its text`. */
async function entriesOf(form: FormData) {
  return Promise.all(
    [...form].map(async ([k, v]) => [k, typeof v === "string" ? v : `${v.name}: ${await v.text()}`] as const),
  );
}

async function read(pieces: string[], contentType = type) {
  const calls: [Record<string, string>, string][] = [];
  const form = await readMultipart(webBody(pieces).body, contentType, (fields, fileName) =>
    calls.push([{ ...fields }, fileName]),
  );
  return { calls, entries: await entriesOf(form), form };
}

/** The same pseudo-random numbers on every run, so a failing case can be reproduced. */
function seeded(seed: number) {
  let x = seed;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

describe("readMultipart", () => {
  it("hands over the text fields before the file, with its name, and returns the whole form", async () => {
    const whole =
      part("phone", "+61400000001") +
      part("gender", "female") +
      filePart("image", "me.jpg", "JPEGBYTES") +
      part("keepDetails", "true") +
      end();
    const { calls, entries, form } = await read([whole]);
    expect(calls).toEqual([[{ phone: "+61400000001", gender: "female" }, "me.jpg"]]);
    expect(entries).toEqual([
      ["phone", "+61400000001"],
      ["gender", "female"],
      ["image", "me.jpg: JPEGBYTES"],
      ["keepDetails", "true"],
    ]);
    expect(form.get("image")).toBeInstanceOf(File);
    expect((form.get("image") as File).type).toBe("image/jpeg");
  });

  it("waits for fields split across pieces, and calls once", async () => {
    const whole =
      part("name", "Priya Sharma") + part("eventID", "12") + filePart("image", "a.jpg", "x".repeat(5000)) + end();
    const pieces = Array.from({ length: Math.ceil(whole.length / 7) }, (_, i) => whole.slice(i * 7, i * 7 + 7));
    const { calls, entries } = await read(pieces);
    expect(calls).toEqual([[{ name: "Priya Sharma", eventID: "12" }, "a.jpg"]]);
    expect(entries).toEqual([
      ["name", "Priya Sharma"],
      ["eventID", "12"],
      ["image", `a.jpg: ${"x".repeat(5000)}`],
    ]);
  });

  it("reads a quoted boundary and the empty name of a file not chosen", async () => {
    const whole = part("phone", "1") + filePart("image", "", "") + end();
    const { calls, form } = await read([whole], `multipart/form-data; boundary="${boundary}"`);
    expect(calls).toEqual([[{ phone: "1" }, ""]]);
    expect(form.get("image")).toMatchObject({ name: "", size: 0 });
    // As a browser sends a file input left empty.
    const browser = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`;
    const empty = await read([part("phone", "1") + browser + end()]);
    expect(empty.calls).toEqual([[{ phone: "1" }, ""]]);
    expect(empty.form.get("image")).toMatchObject({ name: "", size: 0 });
  });

  it("does not call when there is no file, and calls with no fields when the file comes first", async () => {
    expect((await read([part("phone", "1") + end()])).calls).toEqual([]);
    expect((await read([filePart("image", "a.jpg", "x") + part("phone", "1") + end()])).calls).toEqual([[{}, "a.jpg"]]);
  });

  it("stops reading when the callback refuses", async () => {
    const { body, state } = webBody([part("phone", "1") + filePart("image", "a.jpg", "x"), "more", end()]);
    await expect(
      readMultipart(body, type, () => {
        throw new Error("sold out");
      }),
    ).rejects.toThrow("sold out");
    expect(state.cancelled).toBe(true);
  });

  it("fails on a body that is not a whole form, as the platform's own parser does", async () => {
    const good = part("phone", "1") + filePart("image", "a.jpg", "x") + end();
    const broken: [string, string, string][] = [
      ["no boundary", "multipart/form-data", good],
      ["an empty boundary", "multipart/form-data; boundary=", good],
      ["another boundary in the body", "multipart/form-data; boundary=OTHER", good],
      ["an empty body", type, ""],
      ["no closing boundary", type, part("phone", "1")],
      ["a part without a name", type, `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n${end()}`],
      [
        "a file without a name",
        type,
        `--${boundary}\r\nContent-Disposition: form-data; filename="a.jpg"\r\n\r\nx\r\n${end()}`,
      ],
      ["a broken part header", type, `--${boundary}\r\nContent Disposition\r\n\r\nx\r\n${end()}`],
      [
        "a 20 KB part header",
        type,
        `--${boundary}\r\nContent-Disposition: form-data; name="a"; x="${"y".repeat(20_000)}"\r\n\r\nx\r\n${end()}`,
      ],
    ];
    for (const [label, contentType, body] of broken) {
      await expect(readMultipart(webBody([body]).body, contentType), label).rejects.toThrow();
    }
    await expect(readMultipart(null, type)).rejects.toThrow();
  });

  it("fails on a form cut short anywhere before its closing boundary, however it arrives", async () => {
    const whole =
      part("phone", "+61400000001") + filePart("image", "me.jpg", "JPEG".repeat(100)) + part("a", "b") + end();
    const random = seeded(0x2545f491);
    // Up to and including `--boundary-`: the closing `--` is what says the form is whole.
    for (let cut = 0; cut <= whole.length - 3; cut++) {
      const piece = 1 + random(400);
      const cutBody = whole.slice(0, cut);
      const pieces = Array.from({ length: Math.ceil(cutBody.length / piece) }, (_, i) =>
        cutBody.slice(i * piece, (i + 1) * piece),
      );
      await expect(
        readMultipart(webBody(pieces).body, type, () => undefined),
        `cut at ${cut}`,
      ).rejects.toThrow();
    }
  });

  it("reads a form under any boundary the standard allows, in pieces of any size", async () => {
    // RFC 2046's boundary characters; a space must not end it, and one with a space is quoted.
    const chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ";
    const random = seeded(0x9e3779b9);
    for (let i = 0; i < 60; i++) {
      const b = `${Array.from({ length: 1 + random(69) }, () => chars[random(chars.length)]).join("")}x`;
      const whole = part("phone", "+61400000001", b) + filePart("image", "me.jpg", "JPEG".repeat(100), b) + end(b);
      const piece = 1 + random(200);
      const pieces = Array.from({ length: Math.ceil(whole.length / piece) }, (_, k) =>
        whole.slice(k * piece, (k + 1) * piece),
      );
      const { calls, entries } = await read(pieces, `multipart/form-data; boundary="${b}"`);
      expect(calls, b).toEqual([[{ phone: "+61400000001" }, "me.jpg"]]);
      expect(entries, b).toEqual([
        ["phone", "+61400000001"],
        ["image", `me.jpg: ${"JPEG".repeat(100)}`],
      ]);
    }
  });
});

describe("readMultipart, on Node's own request stream", () => {
  it("hands over the fields before the file and returns the whole form, as from a web stream", async () => {
    const whole = part("phone", "+61400000001") + filePart("image", "me.jpg", "JPEG".repeat(2000)) + end();
    const stream = new PassThrough();
    const calls: [Record<string, string>, string][] = [];
    const form = readMultipart(stream, type, (fields, fileName) => calls.push([{ ...fields }, fileName]));
    for (let i = 0; i < whole.length; i += 100) stream.write(whole.slice(i, i + 100));
    stream.end();
    expect(await entriesOf(await form)).toEqual([
      ["phone", "+61400000001"],
      ["image", `me.jpg: ${"JPEG".repeat(2000)}`],
    ]);
    expect(calls).toEqual([[{ phone: "+61400000001" }, "me.jpg"]]);
  });

  it("stops when the callback refuses, leaving the rest unread for the server to drain", async () => {
    const stream = new PassThrough();
    const form = readMultipart(stream, type, () => {
      throw new Error("sold out");
    });
    stream.write(part("phone", "1") + filePart("image", "a.jpg", "x"));
    await expect(form).rejects.toThrow("sold out");
    expect(stream.isPaused()).toBe(true);
    expect(stream.listenerCount("data")).toBe(0);
  });

  it("fails when the upload is cut off before its end", async () => {
    const stream = new PassThrough();
    const form = readMultipart(stream, type, () => undefined);
    stream.write(part("phone", "1"));
    stream.destroy();
    await expect(form).rejects.toThrow();
  });
});
