import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { fieldErrors, sayError } from './words.js';

interface InputProps {
  type?: 'text' | 'email' | 'password' | 'url' | 'search';
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

/**
 * A failure where the action was, in words (words.ts); `attempt` makes a repeated failure a new
 * alert, so it is announced again. Field-level refusals are shown beside their fields too.
 */
export function Problem({ error, attempt = 0 }: { error: unknown; attempt?: number }) {
  if (error === undefined || error === null) return null;
  const fields = fieldErrors(error);
  return (
    <p class="problem" role="alert" key={attempt}>
      {sayError(error)}
      {Object.keys(fields).length > 0 && ' See the fields below.'}
    </p>
  );
}

/** A page: its heading (focused when the page opens) and its title in the tab, `<page name> - Task Service`. */
export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} - Task Service`;
  }, [title]);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </section>
  );
}

/**
 * A button for a step that cannot be taken back: it asks first, in a modal dialog (Escape or
 * Cancel keeps things as they are, and focus goes back to the button).
 */
export function ConfirmButton(props: { label: string; name: string; question: string; detail: string; confirm: string; busy?: boolean; onConfirm: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useLayoutEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);
  const close = () => {
    dialog.current?.close();
  };
  const id = useRef(`confirm-${Math.random().toString(36).slice(2)}`).current;
  return (
    <>
      <button type="button" class="danger" disabled={props.busy} onClick={() => setOpen(true)} aria-label={props.name}>
        {props.label}
      </button>
      {open && (
        <dialog ref={dialog} aria-labelledby={`${id}-q`} aria-describedby={`${id}-d`} onClose={() => setOpen(false)}>
          <h2 id={`${id}-q`}>{props.question}</h2>
          <p id={`${id}-d`}>{props.detail}</p>
          <div class="row">
            <button type="button" class="danger" onClick={() => (close(), props.onConfirm())}>
              {props.confirm}
            </button>
            <button type="button" class="secondary" autoFocus onClick={close}>
              Cancel
            </button>
          </div>
        </dialog>
      )}
    </>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted">
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
    <div class="secret">
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
