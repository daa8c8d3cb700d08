// The public screens in this language, sign-up's and password reset's (the auth catalogue) with
// them, in one chunk: the auth catalogue's English comes with those screens (../auth.ts).
import authRu from '../catalogues/auth/ru.json';
import publicRu from '../catalogues/public/ru.json';

export default { ...publicRu, ...authRu };
