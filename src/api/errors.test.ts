import { changeLanguage } from '../i18n/language';
import { answerMessage, failure } from './errors';

// A server message with a code is shown in the language in use; one without, as written.

const REFUSAL = {
  status: false,
  msg: 'Invalid username or password.',
  errors: { password: ['Invalid username or password.', 'Not coded yet.'] },
  codes: {
    msg: { code: 'auth.badCredentials' },
    errors: { password: [{ code: 'auth.badCredentials' }, null] },
  },
};

afterEach(async () => {
  await changeLanguage('en');
});

test('in English, as the server wrote it', () => {
  expect(failure(422, REFUSAL, 'x')).toMatchObject({
    message: 'Invalid username or password.',
    fieldErrors: { password: ['Invalid username or password.', 'Not coded yet.'] },
  });
});

test('in French, a coded message in French and the rest as written', async () => {
  await changeLanguage('fr');
  expect(failure(422, REFUSAL, 'x')).toMatchObject({
    message: "Nom d'utilisateur ou mot de passe incorrect.",
    fieldErrors: {
      password: ["Nom d'utilisateur ou mot de passe incorrect.", 'Not coded yet.'],
    },
  });
  expect(
    answerMessage({
      status: true,
      msg: 'Login Successfully',
      codes: { msg: { code: 'auth.signedIn' } },
    }),
  ).toBe('Connexion réussie');
  // A code this client does not know yet: the server's words.
  expect(
    answerMessage({
      status: true,
      msg: 'Something new',
      codes: { msg: { code: 'auth.brandNew' } },
    }),
  ).toBe('Something new');
});
