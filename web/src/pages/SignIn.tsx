import { useState } from 'preact/hooks';
import { ErrorMessage } from '../components/Status';
import { errorMessage, gql } from '../graphql';
import { navigate } from '../router';
import { type Me, useSession } from '../session';

/** The sign-up and log-in forms: one component, two mutations. A new account is Free. */
export function SignIn({ mode }: { mode: 'signup' | 'login' }) {
  const { setMe } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'signup';

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const field = signUp ? 'signUp' : 'logIn';
      const data = await gql<Record<string, Me>>(`mutation($input: Credentials!) { ${field}(input: $input) { email tier } }`, { input: { email, password } });
      setMe(data[field]);
      navigate('#/bills');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="narrow">
      <h1>{signUp ? 'Create your account' : 'Log in'}</h1>
      {signUp && <p class="muted">A new account is on the Free tier: one prediction a day here, and the list of bills likely to move soon.</p>}
      <form onSubmit={submit}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete={signUp ? 'new-password' : 'current-password'}
          minLength={signUp ? 10 : undefined}
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          aria-describedby={signUp ? 'password-rule' : undefined}
        />
        {signUp && (
          <p id="password-rule" class="hint">
            At least 10 characters.
          </p>
        )}
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          {signUp ? 'Sign up' : 'Log in'}
        </button>
      </form>
      <p>{signUp ? <a href="#/login">I already have an account</a> : <a href="#/signup">Create an account</a>}</p>
    </section>
  );
}
