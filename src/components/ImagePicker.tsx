import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { toast } from './toast';
import { CloseIcon, UploadIcon } from './icons';
import './imagePicker.scss';
import { useT } from '../i18n/i18n';
import { withNodes } from '../i18n/withNodes';

/** A picture is one file, jpg/png/jpeg, of at most 2097152 bytes (2 MiB). */
export const IMAGE_MAX_BYTES = 2_097_152;
const EXTENSIONS = ['jpg', 'jpeg', 'png'];
const ACCEPT = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] };

/** A refused pick's error toast is one of these reason codes, shown as they are. */
export const PICK_ERRORS = {
  tooMany: 'MAX_AMOUNT_OF_FILES_EXCEEDED',
  none: 'MIN_AMOUNT_OF_FILES_NOT_REACHED',
  tooSmall: 'FILE_SIZE_TOO_SMALL',
  tooLarge: 'FILE_SIZE_TOO_LARGE',
  wrongType: 'FILE_TYPE_NOT_ACCEPTED',
  noExtension: 'FILE_EXTENSION_NOT_FOUND',
} as const;

const NO_EXTENSION = 'file-extension-not-found';
const WRONG_EXTENSION = 'file-extension-not-accepted';

function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
}

/** The extension must be there and be jpg/png/jpeg, whatever type the browser guessed. */
function checkExtension(file: File) {
  const extension = extensionOf(file.name);
  if (!extension) return { code: NO_EXTENSION, message: PICK_ERRORS.noExtension };
  if (!EXTENSIONS.includes(extension)) {
    return { code: WRONG_EXTENSION, message: PICK_ERRORS.wrongType };
  }
  return null;
}

/** The one reason code for a pick that did not give exactly one acceptable picture. */
export function pickErrorCode(accepted: readonly File[], rejections: readonly FileRejection[]) {
  const codes = new Set(rejections.flatMap((r) => r.errors.map((e) => e.code)));
  if (codes.has('too-many-files')) return PICK_ERRORS.tooMany;
  if (codes.has(NO_EXTENSION)) return PICK_ERRORS.noExtension;
  if (codes.has('file-invalid-type') || codes.has(WRONG_EXTENSION)) return PICK_ERRORS.wrongType;
  if (codes.has('file-too-small')) return PICK_ERRORS.tooSmall;
  if (codes.has('file-too-large')) return PICK_ERRORS.tooLarge;
  if (accepted.length === 0) return PICK_ERRORS.none;
  return null;
}

/**
 * A react-dropzone for one picture: a refused pick toasts its reason code, an accepted one is
 * handed to `onPick`. Spread `getRootProps()`/`getInputProps()` on your own markup, or call
 * `open()` from a button (the avatar's pencil).
 */
export function useImagePicker(
  onPick: (file: File) => void,
  { disabled = false, noClick = false }: { disabled?: boolean; noClick?: boolean } = {},
) {
  return useDropzone({
    accept: ACCEPT,
    maxSize: IMAGE_MAX_BYTES,
    minSize: 1,
    multiple: false,
    disabled,
    noClick,
    validator: checkExtension,
    onDrop: (accepted, rejections) => {
      const code = pickErrorCode(accepted, rejections);
      const file = accepted[0];
      if (code) toast.error(code, { toastId: code });
      else if (file) onPick(file);
    },
  });
}

async function dataUrlOf(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:${file.type};base64,${btoa(binary)}`;
}

interface Props {
  /** Id of the file input (the label points at it). */
  id: string;
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  error?: string;
  disabled?: boolean;
}

/** A labelled drop zone with a preview of the picked picture and a way to remove it. */
export function ImagePicker({ id, label, file, onChange, error, disabled = false }: Props) {
  const t = useT();
  // Preview as a data URL read from the picked file: nothing to revoke afterwards.
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  const pick = (picked: File) => {
    onChange(picked);
    void dataUrlOf(picked).then((url) => setPreview({ file: picked, url }));
  };
  const { getRootProps, getInputProps, isDragActive } = useImagePicker(pick, { disabled });
  const shown = file && preview?.file === file ? preview.url : null;

  return (
    <Form.Group className="image-picker">
      <Form.Label htmlFor={id}>{label}</Form.Label>
      <div
        {...getRootProps({
          className: [
            'image-picker__zone',
            isDragActive ? 'is-active' : '',
            error ? 'is-invalid' : '',
            disabled ? 'is-disabled' : '',
          ].join(' '),
        })}
      >
        {/* Named twice: the <label> for screen readers, aria-label for the hidden input itself. */}
        <input {...getInputProps({ id })} aria-label={label} aria-invalid={Boolean(error)} />
        {file ? (
          <div className="image-picker__picked">
            {shown ? <img src={shown} alt={t('picker.preview', { label })} /> : null}
            <span className="image-picker__name text-truncate" title={file.name}>
              {file.name}
            </span>
          </div>
        ) : (
          <div className="image-picker__hint">
            <UploadIcon width={28} height={28} />
            <span>
              {withNodes(
                t,
                'picker.drop',
                {},
                { browse: <span className="text-primary">{t('picker.browse')}</span> },
              )}
            </span>
            <small className="text-muted">{t('profile.pictureHint')}</small>
          </div>
        )}
      </div>
      {file && !disabled ? (
        <Button
          variant="link"
          size="sm"
          className="image-picker__remove px-0"
          onClick={() => onChange(null)}
          aria-label={t('picker.removeLabel', { label })}
        >
          <CloseIcon width={14} height={14} className="me-1" />
          {t('picker.remove')}
        </Button>
      ) : null}
      {error ? <div className="invalid-feedback d-block">{error}</div> : null}
    </Form.Group>
  );
}
