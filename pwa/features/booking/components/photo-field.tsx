import { type RefObject, useRef } from "react";
import { shrinkPhoto } from "../../../lib/shrink-photo.ts";
import { checkPhoto, PHOTO_REQUIRED, PHOTO_TYPES } from "../validate-details.ts";

/**
 * The photo picker: the native file input (kept for the keyboard and screen readers, shown through
 * its label) styled as a tile with a preview of the chosen photo. A file that is not an image or is
 * 5 MB or more is refused as soon as it is chosen, with the product's message under the field; so is
 * one whose type says image but which does not decode (a text file renamed `.jpg`): the photo is
 * decoded (and shrunk for the upload, pwa/lib/shrink-photo.ts) when it is chosen.
 */
export function PhotoField(props: {
  photo: File | null;
  /** The chosen photo's object URL, made and let go by the booking store, so Back keeps it. */
  preview: string | null;
  problem: string | null;
  onChoose: (photo: File | null, problem: string | null) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const { preview } = props;
  // Only the latest choice's decoding may answer: an earlier, slower one must not undo it.
  const latest = useRef<File | null>(null);
  return (
    <div className="field photo-field">
      <label htmlFor="booking-photo">Photo</label>
      <input
        ref={props.inputRef}
        id="booking-photo"
        className="photo-input"
        name="image"
        type="file"
        accept={PHOTO_TYPES.join(",")}
        required
        aria-invalid={props.problem ? true : undefined}
        aria-describedby="booking-photo-hint booking-photo-problem"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Closing the picker without choosing keeps the photo already chosen.
          if (!file) return;
          const problem = checkPhoto(file);
          // A refused file is let go at once, and choosing the same one again is a new choice.
          if (problem) e.target.value = "";
          props.onChoose(problem ? null : file, problem);
          if (problem) return;
          latest.current = file;
          const input = e.target;
          void shrinkPhoto(file).then((decoded) => {
            if (decoded || latest.current !== file) return;
            input.value = "";
            props.onChoose(null, PHOTO_REQUIRED);
          });
        }}
      />
      <label htmlFor="booking-photo" className="photo-picker">
        {preview ? (
          <img className="photo-preview" src={preview} alt="" />
        ) : (
          <span className="photo-placeholder" aria-hidden="true">
            +
          </span>
        )}
        <span className="photo-picker-text">
          <span className="photo-picker-action">{props.photo ? "Change photo" : "Choose a photo"}</span>
          {props.photo ? <span className="photo-file-name">{props.photo.name}</span> : null}
        </span>
      </label>
      <small id="booking-photo-hint" className="hint">
        A clear photo of your face: JPEG, PNG or WebP, less than 5 MB.
      </small>
      <p id="booking-photo-problem" className="message error" role="alert">
        {props.problem}
      </p>
    </div>
  );
}
