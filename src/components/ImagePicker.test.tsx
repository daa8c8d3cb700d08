import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { IMAGE_MAX_BYTES, ImagePicker, PICK_ERRORS } from './ImagePicker';

function Harness({ onChange }: { onChange: (file: File | null) => void }) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <ImagePicker
      id="picture"
      label="Front Side Image"
      file={file}
      onChange={(next) => {
        setFile(next);
        onChange(next);
      }}
    />
  );
}

const png = (name = 'front.png', bytes = 16) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });

function setup() {
  const onChange = jest.fn();
  const user = userEvent.setup({ applyAccept: false });
  renderWithProviders(<Harness onChange={onChange} />);
  const input = screen.getByLabelText('Front Side Image') as HTMLInputElement;
  return { user, input, onChange, zone: input.parentElement as HTMLElement };
}

/** Drops files (or nothing) on the zone, as a browser does. */
async function drop(zone: HTMLElement, files: File[]) {
  await act(async () => {
    fireEvent.drop(zone, {
      dataTransfer: {
        files,
        items: files.map((f) => ({ kind: 'file', type: f.type, getAsFile: () => f })),
        types: ['Files'],
      },
    });
  });
}

test('accepts one jpg/png/jpeg picture and previews it', async () => {
  const { user, input, onChange } = setup();
  const file = png();
  await user.upload(input, file);
  expect(onChange).toHaveBeenCalledWith(file);
  expect(await screen.findByRole('img', { name: 'Front Side Image preview' })).toHaveAttribute(
    'src',
    expect.stringMatching(/^data:image\/png;base64,/),
  );
  await user.click(screen.getByRole('button', { name: 'Remove Front Side Image' }));
  expect(onChange).toHaveBeenLastCalledWith(null);
  expect(screen.queryByRole('img')).toBeNull();
});

test.each([
  ['a picture over 2 MB', () => png('big.png', IMAGE_MAX_BYTES + 1), PICK_ERRORS.tooLarge],
  ['an empty file', () => png('empty.png', 0), PICK_ERRORS.tooSmall],
  [
    'a PDF',
    () => new File(['%PDF'], 'scan.pdf', { type: 'application/pdf' }),
    PICK_ERRORS.wrongType,
  ],
  [
    'a GIF named .gif',
    () => new File(['GIF89a'], 'a.gif', { type: 'image/png' }),
    PICK_ERRORS.wrongType,
  ],
  ['a file without extension', () => png('front'), PICK_ERRORS.noExtension],
])('refuses %s with the reason code as an error toast', async (_label, make, code) => {
  const { user, input, onChange } = setup();
  await user.upload(input, make());
  expect(await screen.findByText(code)).toBeInTheDocument();
  expect(onChange).not.toHaveBeenCalled();
});

test('exactly 2 MB is still accepted', async () => {
  const { user, input, onChange } = setup();
  await user.upload(input, png('edge.png', IMAGE_MAX_BYTES));
  expect(onChange).toHaveBeenCalledTimes(1);
});

test('more than one file: MAX_AMOUNT_OF_FILES_EXCEEDED, and none is taken', async () => {
  const { zone, onChange } = setup();
  await drop(zone, [png('a.png'), png('b.png')]);
  expect(await screen.findByText(PICK_ERRORS.tooMany)).toBeInTheDocument();
  expect(onChange).not.toHaveBeenCalled();
});

test('a drop without any file: MIN_AMOUNT_OF_FILES_NOT_REACHED', async () => {
  const { zone, onChange } = setup();
  await drop(zone, []);
  await waitFor(() => expect(screen.getByText(PICK_ERRORS.none)).toBeInTheDocument());
  expect(onChange).not.toHaveBeenCalled();
});
