// The Profile flow: a new avatar served back, the personal information saved (twice: it stays
// editable until approved), and a KYC document uploaded for it, whose scans only their owner
// may fetch.
import { isObject } from '../spec.mjs';
import * as v from '../values.mjs';
import { otherAccount } from './auth.mjs';

/**
 * @typedef {import('./flow.mjs').Flow} Flow
 * @typedef {import('./flow.mjs').FlowDefinition} FlowDefinition
 * @typedef {import('../arbitraries.mjs').Body} Body
 */
/**
 * @template T
 * @typedef {import('./flow.mjs').Step<T>} Step
 */
/**
 * The answers this flow reads, as the contract declares them.
 * @typedef {{ avatar: string }} NewPicture
 * @typedef {{ name: string, city: string | null, pincode: string | null,
 *   avatar: string | null }} Profile
 * @typedef {{ profile: Profile }} SavedProfile
 * @typedef {{ status: number, document_name: string, front: string | null }} Upload
 * @typedef {{ id: string, document_type: string, data: string[], back_required: number,
 *   uploads: { data: Upload[] } }} DocumentType
 * @typedef {{ data: DocumentType[] }} DocumentTypeList
 */

/** @param {string} type @param {import('../values.mjs').FilePart} file @returns {Body} */
const upload = (type, file) => ({ kind: 'multipart', fields: {}, files: { [type]: file } });

/** @type {FlowDefinition} */
export const profileAndKyc = {
  name: 'avatar, profile and KYC upload',
  ops: ['changePicture', 'getImage', 'updateProfile', 'listDocTypes', 'uploadKyc'],
  needs: (r) => (r.account ? null : 'needs --register (it changes the profile)'),
  /** @param {Flow} f */
  async run(f) {
    const photo = f.sample(v.pngFile);
    /** @type {Step<NewPicture>} */
    const changed = await f.step('changePicture', { body: upload('photo', photo) }, 200);
    const avatar = changed.json?.avatar;
    const image = await f.step('getImage', { path: { file: avatar } }, 200);
    f.expect(
      image.res.headers['content-type']?.startsWith('image/png') === true,
      `the PNG avatar is served as ${image.res.headers['content-type']}`,
      image,
    );
    await f.step('getImage', { path: { file: avatar }, auth: 'none' }, 200);

    const profile = {
      name: 'Contract Check',
      gender: 'others',
      dob: '1990-05-17',
      address_line1: 'Flat 12, Sunrise Apartments',
      address_line2: 'Baner Road',
      city: 'Pune',
      state: 'Maharashtra',
      pincode: '411001',
      landmark: 'Near City Mall',
    };
    /** @type {Step<SavedProfile>} */
    const saved = await f.step('updateProfile', { json: profile }, 200);
    f.expect(
      saved.json?.profile?.name === profile.name &&
        saved.json?.profile?.pincode === profile.pincode,
      'updateProfile answers a profile without the saved fields',
      saved,
    );
    f.expect(
      saved.json?.profile?.avatar === avatar,
      `the profile's avatar is ${saved.json?.profile?.avatar}, expected ${avatar}`,
      saved,
    );
    // Until an operator approves it, the section stays editable.
    /** @type {Step<SavedProfile>} */
    const again = await f.step('updateProfile', { json: { ...profile, city: 'Mumbai' } }, 200);
    f.expect(
      again.json?.profile?.city === 'Mumbai',
      'a second updateProfile did not change the city',
      again,
    );

    /** @type {Step<DocumentTypeList>} */
    const types = await f.step('listDocTypes', {}, 200);
    const type = (types.json?.data ?? []).find(
      (t) => (t?.uploads?.data ?? []).length === 0 && (t?.data ?? []).length > 0,
    );
    if (!type) f.skip('listDocTypes has no document type without uploads');
    // The type was chosen for having a document name.
    const documentName = /** @type {string} */ (type.data[0]);
    /** @type {Body} */
    const body = {
      kind: 'multipart',
      fields: {
        document_type: String(type.document_type).toLowerCase(),
        document_name: documentName,
        document_number: '123412341234',
      },
      files: {
        front: f.sample(v.jpegFile),
        ...(type.back_required ? { back: f.sample(v.pngFile) } : {}),
      },
    };
    await f.step('uploadKyc', { body }, 200);
    /** @type {Step<DocumentTypeList>} */
    const listed = await f.step('listDocTypes', {}, 200);
    const mine = (listed.json?.data ?? []).find((t) => t?.id === type.id)?.uploads?.data?.[0];
    f.expect(
      mine?.status === 0 && mine?.document_name === documentName,
      `the new upload is listed as ${JSON.stringify(mine)}, expected a pending ${documentName}`,
      listed,
    );
    await f.step('uploadKyc', { body }, 409);
    if (isObject(mine) && typeof mine.front === 'string') {
      await f.step('getImage', { path: { file: mine.front } }, 200);
      await f.step('getImage', { path: { file: mine.front }, auth: 'none' }, 403);
      const other = (await otherAccount(f)).session;
      await f.step('getImage', { path: { file: mine.front }, bearer: other }, 403);
    }
  },
};
