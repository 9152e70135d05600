import { useEffect, useRef, useState } from 'preact/hooks';

export const PAGES = [
  ['tasks', 'Tasks'],
  ['connections', 'Connections'],
  ['tokens', 'API tokens'],
  ['apps', 'Authorised apps'],
  ['webhooks', 'Webhooks'],
  ['usage', 'Usage'],
  ['account', 'Account'],
] as const;
export type PageName = (typeof PAGES)[number][0];

/**
 * The navigation and the session's controls. Below 600 px they fold behind a `Menu` button
 * (styles.css), so the header is one line on a phone; Escape or choosing a page folds them again.
 */
export function Menu({ page, email, onSignOut }: { page: PageName; email: string; onSignOut: () => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [page]);
  const isOpen = useRef(open);
  isOpen.current = open;
  useEffect(() => {
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !isOpen.current) return;
      setOpen(false);
      button.current?.focus();
    };
    addEventListener('keydown', escape);
    return () => removeEventListener('keydown', escape);
  }, []);

  return (
    <>
      <button ref={button} type="button" class="menu-button secondary" aria-expanded={open} aria-controls="site-menu" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <div id="site-menu" class={open ? 'site-menu open' : 'site-menu'}>
        <nav aria-label="Main">
          <ul>
            {PAGES.map(([name, label]) => (
              <li key={name}>
                <a href={`#/${name}`} aria-current={page === name ? 'page' : undefined} onClick={() => setOpen(false)}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="muted email">{email}</span>
          <button type="button" class="secondary" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </div>
    </>
  );
}
