import type { ComponentChildren } from 'preact';

/** A failure the user should read: announced to screen readers as it appears. */
export function ErrorMessage({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

/** A short confirmation (saved, created), announced politely. */
export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}
