/**
 * Server-rendered markup with escaping by default: every value put into an `html` template is
 * escaped unless it is markup already (another `html` template, or text declared so with
 * `rawHtml`), so forgetting to escape is no longer possible, and unescaped text is easy to grep for.
 */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/** What an `html` template takes: text (escaped), markup, lists of either; false, null and undefined render nothing. */
export type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(markup);
}

/** Markup the code vouches for, inserted as is: the one way around the escaping. */
export const rawHtml = (markup: string): SafeHtml => new SafeHtml(markup);

/** Items separated by a separator (text, escaped like any value). */
export const joinHtml = (items: readonly HtmlValue[], separator: string): SafeHtml =>
  new SafeHtml(items.map(render).join(escapeHtml(separator)));

/** Numeric references for every character that could end an attribute or start markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === false || value === null || value === undefined) return '';
  return escapeHtml(String(value));
}
