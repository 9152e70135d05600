import type { TaskApiError } from '@task-service/sdk';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { errorText, fieldErrors } from './api.js';

interface InputProps {
  type?: 'text' | 'email' | 'password' | 'url';
  autoComplete?: string;
  required?: boolean;
  maxLength?: number;
}

/** A labelled input, with the service's message for it beside it when a form was refused. */
export function Field(props: { id: string; label: string; value: string; onValue: (value: string) => void; error?: string | undefined } & InputProps) {
  const { id, label, value, onValue, error, ...rest } = props;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        {...rest}
        id={id}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A refusal as the person reads it; the field-level ones are shown beside their fields instead. */
export function Problem({ error }: { error: TaskApiError | string | undefined }) {
  if (!error) return null;
  const text = typeof error === 'string' ? error : errorText(error);
  const fields = typeof error === 'string' ? {} : fieldErrors(error);
  return (
    <p class="problem" role="alert">
      {text}
      {Object.keys(fields).length > 0 && ' See the fields below.'}
    </p>
  );
}

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A secret the service shows once: read-only, selectable, with a copy button. */
export function Secret({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div class="secret" role="status">
      <p>Copy it now: it is shown this once.</p>
      <label for={id}>{label}</label>
      <div class="row">
        <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {copied && <p class="muted">Copied.</p>}
    </div>
  );
}

export function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : 'never';
}
