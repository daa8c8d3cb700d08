// The public screens in this language, sign-up's and password reset's (the auth catalogue) and
// the server's coded messages with them, in one chunk: the auth catalogue's English comes with
// those screens (../auth.ts); the server's needs none (it writes English).
import authEs from '../catalogues/auth/es.json';
import publicEs from '../catalogues/public/es.json';
import serverEs from '../catalogues/server/es.json';

export default { ...publicEs, ...authEs, ...serverEs };
