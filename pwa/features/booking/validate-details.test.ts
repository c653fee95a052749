import { describe, expect, it } from "vitest";
import { checkPhoto, validateDetails } from "./validate-details.ts";

const photo = (size: number, type = "image/jpeg") => new File([new Uint8Array(size)], "me.jpg", { type });
const complete = {
  name: "Priya",
  email: "priya@example.com",
  gender: "female" as const,
  dateOfBirth: "1995-05-03",
  photo: photo(1000),
  consent: true,
};

describe("validateDetails", () => {
  it("passes a complete form", () => {
    expect(validateDetails(complete)).toBeNull();
  });

  it.each([{ name: "  " }, { email: "" }, { gender: "" as const }, { dateOfBirth: "" }])(
    "asks for every field when %o",
    (change) => {
      expect(validateDetails({ ...complete, ...change })).toBe("All fields are required.");
    },
  );

  it("asks for the photo after the fields", () => {
    expect(validateDetails({ ...complete, photo: null })).toBe("Image upload is required.");
    expect(validateDetails({ ...complete, name: "", photo: null })).toBe("All fields are required.");
  });

  it("refuses files that are not JPEG, PNG or WebP", () => {
    expect(validateDetails({ ...complete, photo: photo(10, "application/pdf") })).toBe(
      "Please choose an image file (JPEG, PNG or WebP).",
    );
    expect(validateDetails({ ...complete, photo: photo(10, "image/png") })).toBeNull();
    expect(validateDetails({ ...complete, photo: photo(10, "image/webp") })).toBeNull();
  });

  it("refuses photos of 5 MB or more", () => {
    expect(validateDetails({ ...complete, photo: photo(5 * 1024 * 1024) })).toBe("Image should be less than 5 MB.");
    expect(validateDetails({ ...complete, photo: photo(5 * 1024 * 1024 - 1) })).toBeNull();
  });

  it("asks for the box about who sees what last", () => {
    expect(validateDetails({ ...complete, consent: false })).toBe(
      "Please tick the box to confirm you have read who sees your details.",
    );
    expect(validateDetails({ ...complete, photo: null, consent: false })).toBe("Image upload is required.");
  });
});

describe("checkPhoto, as soon as a file is chosen", () => {
  it("says what is wrong with the file itself, or nothing", () => {
    expect(checkPhoto(photo(5 * 1024 * 1024))).toBe("Image should be less than 5 MB.");
    expect(checkPhoto(photo(10, "text/plain"))).toBe("Please choose an image file (JPEG, PNG or WebP).");
    expect(checkPhoto(photo(5 * 1024 * 1024 - 1, "image/webp"))).toBeNull();
  });
});
