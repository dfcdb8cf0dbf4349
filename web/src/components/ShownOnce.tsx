import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Notice } from './Status';

/** A secret the server shows only once (an API key, a webhook secret), with a copy button. */
export function ShownOnce({ title, value, testId, children }: { title: string; value: string; testId: string; children?: ComponentChildren }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div class="callout" role="status">
      <p>
        <strong>{title}</strong> Copy it now: it is shown only this once.
      </p>
      <p class="key-row">
        <code data-testid={testId}>{value}</code>
        <button type="button" onClick={copy}>
          Copy
        </button>
      </p>
      {children}
      {copied && <Notice>Copied.</Notice>}
    </div>
  );
}
