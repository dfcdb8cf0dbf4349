/** The dashboard's session cookie: its name, and how it is written and cleared. */
export const SESSION_COOKIE = 'bp_session';

/** The session token in a Cookie header, or null. */
export function readSessionCookie(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || null;
  }
  return null;
}

/**
 * HttpOnly (no script can read it), SameSite=Lax (not sent on cross-site subrequests or POSTs),
 * Path=/ and an expiry; Secure when the request came over HTTPS (directly, or through a proxy
 * trusted with TRUST_PROXY).
 */
export function sessionCookieHeader(token: string, expiresAt: Date, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, 'Path=/', `Expires=${expiresAt.toUTCString()}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

/** Tells the browser to forget the session (logged out, or the session ended). */
export function clearedSessionCookieHeader(secure: boolean): string {
  return [`${SESSION_COOKIE}=`, 'Path=/', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}
