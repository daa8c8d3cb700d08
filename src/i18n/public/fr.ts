// The public screens in this language, sign-up's and password reset's (the auth catalogue) and
// the server's coded messages with them, in one chunk: the auth catalogue's English comes with
// those screens (../auth.ts); the server's needs none (it writes English).
import authFr from '../catalogues/auth/fr.json';
import publicFr from '../catalogues/public/fr.json';
import serverFr from '../catalogues/server/fr.json';

export default { ...publicFr, ...authFr, ...serverFr };
