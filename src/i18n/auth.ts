import type { Messages } from '@lingui/core';
import authEn from './catalogues/auth/en.json';
import { i18n } from './i18n';

// Sign-up's, password reset's and the password checklist's messages in English: the screens that
// show them import this module, so they arrive in those screens' chunks and /login's first load
// stays as it was. In another language they come with the public catalogue (./public/).
//
// In English they join the catalogue in use without Lingui's 'change' event: no screen drawn yet
// shows them, and a 'change' while a prerendered /register or /reset hydrates would draw the
// routes again, and React would then throw the prerendered screen away and draw it afresh.
if (i18n.locale === 'en') Object.assign(i18n.messages, authEn);
else i18n.load('en', authEn as unknown as Messages);
