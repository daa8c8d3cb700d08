// The public screens in this language, sign-up's and password reset's (the auth catalogue) with
// them, in one chunk: the auth catalogue's English comes with those screens (../auth.ts).
import authEs from '../catalogues/auth/es.json';
import publicEs from '../catalogues/public/es.json';

export default { ...publicEs, ...authEs };
