// The public screens in this language, sign-up's and password reset's (the auth catalogue) with
// them, in one chunk: the auth catalogue's English comes with those screens (../auth.ts).
import authTr from '../catalogues/auth/tr.json';
import publicTr from '../catalogues/public/tr.json';

export default { ...publicTr, ...authTr };
