// The public screens in this language, sign-up's and password reset's (the auth catalogue) with
// them, in one chunk: the auth catalogue's English comes with those screens (../auth.ts).
import authIt from '../catalogues/auth/it.json';
import publicIt from '../catalogues/public/it.json';

export default { ...publicIt, ...authIt };
