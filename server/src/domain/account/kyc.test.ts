import { KYC_MSG, kycStatusOf, personalInfoErrors, pincodeRule } from './kyc';

// status_kyc as the issue states it: 0 nothing uploaded; 3 something awaiting review; 2 the
// latest review rejected and no document approved; 1 personal information approved and a
// document approved.

const pending = { status: 0 as const, reviewed_at: null };
const approved = (at: string) => ({ status: 1 as const, reviewed_at: at });
const rejected = (at: string) => ({ status: 2 as const, reviewed_at: at });

describe('kycStatusOf', () => {
  test('0 without uploads, whatever the personal section', () => {
    expect(kycStatusOf(false, [])).toBe(0);
    expect(kycStatusOf(true, [])).toBe(0);
  });

  test('3 while anything awaits review', () => {
    expect(kycStatusOf(false, [pending])).toBe(3);
    expect(kycStatusOf(false, [rejected('2026-01-02'), pending])).toBe(3);
    // Documents approved, personal information not yet: awaiting its review.
    expect(kycStatusOf(false, [approved('2026-01-02')])).toBe(3);
  });

  test('2 when the latest review rejected and nothing is approved', () => {
    expect(kycStatusOf(false, [rejected('2026-01-02')])).toBe(2);
    expect(kycStatusOf(true, [rejected('2026-01-01'), rejected('2026-01-03')])).toBe(2);
    // An approved document outweighs a later rejection.
    expect(kycStatusOf(false, [approved('2026-01-01'), rejected('2026-01-03')])).toBe(3);
  });

  test('1 once the personal section and a document are approved', () => {
    expect(kycStatusOf(true, [approved('2026-01-01')])).toBe(1);
    expect(kycStatusOf(true, [approved('2026-01-01'), pending, rejected('2026-01-05')])).toBe(1);
  });
});

describe('personal information rules', () => {
  const info = {
    name: 'Asha Verma',
    gender: 'female' as const,
    dob: '1990-05-17',
    address_line1: 'Flat 12',
    address_line2: 'Baner Road',
    city: 'Pune',
    state: 'Maharashtra',
    pincode: '411001',
    landmark: null,
  };

  test('pincode: 6 for India, 4 to 7 elsewhere, digits and + only', () => {
    expect(pincodeRule('411001', 'IN')).toBeNull();
    expect(pincodeRule('41100', 'IN')).toBe(KYC_MSG.pincodeIndia);
    expect(pincodeRule('4110011', 'IN')).toBe(KYC_MSG.pincodeIndia);
    expect(pincodeRule('7500', 'FR')).toBeNull();
    expect(pincodeRule('+123456', null)).toBeNull();
    expect(pincodeRule('750', 'FR')).toBe(KYC_MSG.pincodeOther);
    expect(pincodeRule('75 001', 'FR')).toBe(KYC_MSG.pincodeOther);
  });

  test('birth date before today, name letters and spaces', () => {
    expect(personalInfoErrors(info, 'IN', '2026-11-20')).toEqual({});
    expect(personalInfoErrors({ ...info, dob: '2026-11-20' }, 'IN', '2026-11-20')).toEqual({
      dob: [KYC_MSG.dobPast],
    });
    expect(personalInfoErrors({ ...info, name: 'Asha_V' }, 'IN', '2026-11-20')).toEqual({
      name: [KYC_MSG.nameLetters],
    });
  });
});
