/** A button that copies a value to the clipboard and says so: for secrets shown once and for secret addresses alike. */
import { useState } from 'preact/hooks';

export function CopyButton({ value, label, class: className }: { value: string; label?: string; class?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <button type="button" class={className} aria-label={label} onClick={copy}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
