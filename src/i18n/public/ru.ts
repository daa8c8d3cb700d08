// The public screens in this language, sign-up's and password reset's (the auth catalogue) and
// the server's coded messages with them, in one chunk: the auth catalogue's English comes with
// those screens (../auth.ts); the server's needs none (it writes English).
import authRu from '../catalogues/auth/ru.json';
import publicRu from '../catalogues/public/ru.json';
import serverRu from '../catalogues/server/ru.json';

export default { ...publicRu, ...authRu, ...serverRu };
