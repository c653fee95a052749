/**
 * The largest photo or event picture accepted, in bytes (5 MB). The forms check a chosen file
 * against it at once; the server checks the upload again, by its bytes.
 */
export const MAX_IMAGE_BYTES = 5_242_880;
