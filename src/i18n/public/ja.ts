// The public screens in this language, sign-up's and password reset's (the auth catalogue) with
// them, in one chunk: the auth catalogue's English comes with those screens (../auth.ts).
import authJa from '../catalogues/auth/ja.json';
import publicJa from '../catalogues/public/ja.json';

export default { ...publicJa, ...authJa };
