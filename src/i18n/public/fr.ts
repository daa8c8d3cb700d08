// The public screens in this language, sign-up's and password reset's (the auth catalogue) with
// them, in one chunk: the auth catalogue's English comes with those screens (../auth.ts).
import authFr from '../catalogues/auth/fr.json';
import publicFr from '../catalogues/public/fr.json';

export default { ...publicFr, ...authFr };
