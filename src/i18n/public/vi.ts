// The public screens in this language, sign-up's and password reset's (the auth catalogue) and
// the server's coded messages with them, in one chunk: the auth catalogue's English comes with
// those screens (../auth.ts); the server's needs none (it writes English).
import authVi from '../catalogues/auth/vi.json';
import publicVi from '../catalogues/public/vi.json';
import serverVi from '../catalogues/server/vi.json';

export default { ...publicVi, ...authVi, ...serverVi };
