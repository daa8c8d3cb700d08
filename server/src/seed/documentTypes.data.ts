import type { Insertable } from 'kysely';
import type { DocumentTypesTable } from '../db/schema';

// KYC sections. Document numbers are required except for the photo; Aadhar is digits only, at
// most 12; others at most 20 characters.
export const DOCUMENT_TYPES: readonly Insertable<DocumentTypesTable>[] = [
  {
    id: 'dt_identity',
    document_type: 'Identity Proof',
    document_names: JSON.stringify(['Aadhar Card', 'Passport', 'Driving License', 'Voter ID']),
    front_required: 1,
    back_required: 1,
    number_required: 1,
    sort_order: 1,
  },
  {
    id: 'dt_pan',
    document_type: 'PAN Card',
    document_names: JSON.stringify(['PAN Card']),
    front_required: 1,
    back_required: 0,
    number_required: 1,
    sort_order: 2,
  },
  {
    id: 'dt_photo',
    document_type: 'Photo',
    document_names: JSON.stringify(['Photo']),
    front_required: 1,
    back_required: 0,
    number_required: 0,
    sort_order: 3,
  },
];
