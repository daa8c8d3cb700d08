import type { DocumentType, Upload } from '../../src/api/generated/kyc.gen';
import type { Fixtures } from './types';

export function makeUpload(overrides: Partial<Upload> = {}): Upload {
  return {
    id: 'upl_1',
    document_name: 'Aadhar Card',
    document_number: '123412341234',
    front: '0f1e2d3c4b5a69788796a5b4c3d2e1f0.png',
    back: '1f1e2d3c4b5a69788796a5b4c3d2e1f0.jpg',
    status: 0,
    remarks: null,
    created_at: '2026-11-15T10:30:00Z',
    ...overrides,
  };
}

/** The three seeded sections, without uploads unless given. */
export function makeDocTypes(uploads: Partial<Record<string, Upload[]>> = {}): DocumentType[] {
  return [
    {
      id: 'dt_identity',
      document_type: 'Identity Proof',
      data: ['Aadhar Card', 'Passport', 'Driving License', 'Voter ID'],
      front_required: 1,
      back_required: 1,
      uploads: { data: uploads.dt_identity ?? [] },
    },
    {
      id: 'dt_pan',
      document_type: 'PAN Card',
      data: ['PAN Card'],
      front_required: 1,
      back_required: 0,
      uploads: { data: uploads.dt_pan ?? [] },
    },
    {
      id: 'dt_photo',
      document_type: 'Photo',
      data: ['Photo'],
      front_required: 1,
      back_required: 0,
      uploads: { data: uploads.dt_photo ?? [] },
    },
  ];
}

export const fixtures = {
  listDocTypes: { status: true, data: makeDocTypes() },
  uploadKyc: { status: true, msg: 'Document uploaded successfully' },
} satisfies Fixtures;
