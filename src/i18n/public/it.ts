// The public screens in this language, sign-up's and password reset's (the auth catalogue) and
// the server's coded messages with them, in one chunk: the auth catalogue's English comes with
// those screens (../auth.ts); the server's needs none (it writes English).
import authIt from '../catalogues/auth/it.json';
import publicIt from '../catalogues/public/it.json';
import serverIt from '../catalogues/server/it.json';

export default { ...publicIt, ...authIt, ...serverIt };
