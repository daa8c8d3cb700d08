// The public screens in this language, sign-up's and password reset's (the auth catalogue) and
// the server's coded messages with them, in one chunk: the auth catalogue's English comes with
// those screens (../auth.ts); the server's needs none (it writes English).
import authTr from '../catalogues/auth/tr.json';
import publicTr from '../catalogues/public/tr.json';
import serverTr from '../catalogues/server/tr.json';

export default { ...publicTr, ...authTr, ...serverTr };
