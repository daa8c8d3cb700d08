import { HttpResponse, type HttpHandler } from 'msw';
import { fixtures, PNG_BYTES } from '../../factories/profile';
import { on, reply } from '../contract';

/** Default answers of the profile operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('getProfile', fixtures.getProfile),
  reply('changePicture', fixtures.changePicture),
  reply('updateProfile', fixtures.updateProfile),
  // Every stored picture answers the same tiny PNG, typed as the server types it.
  on(
    'getImage',
    () =>
      new HttpResponse(PNG_BYTES, {
        headers: { 'content-type': 'image/png', 'x-content-type-options': 'nosniff' },
      }),
  ),
];
