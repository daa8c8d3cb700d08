// The public screens in this language, sign-up's and password reset's (the auth catalogue) and
// the server's coded messages with them, in one chunk: the auth catalogue's English comes with
// those screens (../auth.ts); the server's needs none (it writes English).
import authJa from '../catalogues/auth/ja.json';
import publicJa from '../catalogues/public/ja.json';
import serverJa from '../catalogues/server/ja.json';

export default { ...publicJa, ...authJa, ...serverJa };
