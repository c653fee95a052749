import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readMultipart, readMultipartFrom } from "./multipart-prefix.ts";

const boundary = "----xyz";
const part = (name: string, value: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, fileName: string, bytes: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: image/jpeg\r\n\r\n${bytes}\r\n`;
const end = `--${boundary}--\r\n`;

/** A request whose body arrives in the pieces given, as a slow upload would. */
function request(pieces: string[], contentType = `multipart/form-data; boundary=${boundary}`) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
      controller.close();
    },
  });
  return new Request("http://x/", {
    method: "POST",
    body,
    headers: { "content-type": contentType },
    duplex: "half",
  } as RequestInit);
}

async function read(pieces: string[], contentType?: string) {
  const calls: [Record<string, string>, string][] = [];
  const body = await readMultipart(request(pieces, contentType), (fields, fileName) => calls.push([fields, fileName]));
  return { calls, body: new TextDecoder().decode(body) };
}

describe("readMultipart", () => {
  it("hands over the text fields before the file, with its name, and returns the whole body", async () => {
    const whole =
      part("phone", "+61400000001") +
      part("gender", "female") +
      filePart("image", "me.jpg", "JPEGBYTES") +
      part("keepDetails", "true") +
      end;
    const { calls, body } = await read([whole]);
    expect(calls).toEqual([[{ phone: "+61400000001", gender: "female" }, "me.jpg"]]);
    expect(body).toBe(whole);
  });

  it("waits for fields split across pieces, and calls once", async () => {
    const whole =
      part("name", "Priya Sharma") + part("eventID", "12") + filePart("image", "a.jpg", "x".repeat(5000)) + end;
    const pieces = Array.from({ length: Math.ceil(whole.length / 7) }, (_, i) => whole.slice(i * 7, i * 7 + 7));
    const { calls, body } = await read(pieces);
    expect(calls).toEqual([[{ name: "Priya Sharma", eventID: "12" }, "a.jpg"]]);
    expect(body).toBe(whole);
  });

  it("reads a quoted boundary and the empty name of a file not chosen", async () => {
    const whole = part("phone", "1") + filePart("image", "", "") + end;
    const { calls } = await read([whole], `multipart/form-data; boundary="${boundary}"`);
    expect(calls).toEqual([[{ phone: "1" }, ""]]);
  });

  it("does not call when there is no file, and calls with no fields when the file comes first", async () => {
    expect((await read([part("phone", "1") + end])).calls).toEqual([]);
    expect((await read([filePart("image", "a.jpg", "x") + part("phone", "1") + end])).calls).toEqual([[{}, "a.jpg"]]);
  });

  it("stops reading when the callback refuses", async () => {
    const req = request([part("phone", "1") + filePart("image", "a.jpg", "x"), "more", end]);
    await expect(
      readMultipart(req, () => {
        throw new Error("sold out");
      }),
    ).rejects.toThrow("sold out");
  });
});

describe("readMultipartFrom, on Node's own request stream", () => {
  const type = `multipart/form-data; boundary=${boundary}`;

  it("hands over the fields before the file and returns the whole body, as readMultipart does", async () => {
    const whole = part("phone", "+61400000001") + filePart("image", "me.jpg", "JPEG".repeat(2000)) + end;
    const stream = new PassThrough();
    const calls: [Record<string, string>, string][] = [];
    const body = readMultipartFrom(stream, type, (fields, fileName) => calls.push([fields, fileName]));
    for (let i = 0; i < whole.length; i += 100) stream.write(whole.slice(i, i + 100));
    stream.end();
    expect(new TextDecoder().decode(await body)).toBe(whole);
    expect(calls).toEqual([[{ phone: "+61400000001" }, "me.jpg"]]);
  });

  it("stops when the callback refuses, leaving the rest unread for the server to drain", async () => {
    const stream = new PassThrough();
    const body = readMultipartFrom(stream, type, () => {
      throw new Error("sold out");
    });
    stream.write(part("phone", "1") + filePart("image", "a.jpg", "x"));
    await expect(body).rejects.toThrow("sold out");
    expect(stream.isPaused()).toBe(true);
    expect(stream.listenerCount("data")).toBe(0);
  });

  it("fails when the upload is cut off before its end", async () => {
    const stream = new PassThrough();
    const body = readMultipartFrom(stream, type, () => undefined);
    stream.write(part("phone", "1"));
    stream.destroy();
    await expect(body).rejects.toThrow();
  });
});
