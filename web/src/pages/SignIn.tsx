import { useState } from 'preact/hooks';
import { ErrorMessage, Notice } from '../components/Status';
import { errorMessage, gql } from '../graphql';
import { LOG_IN, SIGN_UP } from '../operations';
import { navigate } from '../router';
import { type Me, useSession } from '../session';

/**
 * The sign-up and log-in forms: one component, two mutations. A new account is Free. Sign-up
 * answers the same whether or not the address already has an account (nothing tells a stranger
 * which addresses are registered), so it signs no one in: the log-in form follows it.
 */
export function SignIn({ mode }: { mode: 'signup' | 'login' }) {
  const { setMe } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'signup';

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      if (signUp) {
        await gql<{ signUp: boolean }>(SIGN_UP, { input: { email, password } });
        setPassword('');
        setNotice(`${email.trim()} can now log in: log in below with its password.`);
        navigate('#/login');
      } else {
        const data = await gql<{ logIn: Me }>(LOG_IN, { input: { email, password } });
        setMe(data.logIn);
        navigate('#/bills');
      }
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="narrow">
      <h1>{signUp ? 'Create your account' : 'Log in'}</h1>
      {notice && <Notice>{notice}</Notice>}
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
