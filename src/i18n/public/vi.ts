// The public screens in this language, sign-up's and password reset's (the auth catalogue) with
// them, in one chunk: the auth catalogue's English comes with those screens (../auth.ts).
import authVi from '../catalogues/auth/vi.json';
import publicVi from '../catalogues/public/vi.json';

export default { ...publicVi, ...authVi };
