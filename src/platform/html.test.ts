import { describe, expect, it } from 'vitest';
import { escapeHtml, html, joinHtml, rawHtml } from './html.js';

describe('html templates', () => {
  it('escape every value put into them unless it is markup already', () => {
    const name = `<img src=x onerror="alert('x')">&`;
    expect(html`<p title="${name}">${name}</p>`.markup).toBe(`<p title="${escapeHtml(name)}">${escapeHtml(name)}</p>`);
    expect(html`<div>${html`<b>${'<i>'}</b>`}</div>`.markup).toBe('<div><b>&#60;i&#62;</b></div>');
  });

  it('insert raw markup only when it is declared so', () => {
    expect(html`<style>${rawHtml('a>b{}')}</style>`.markup).toBe('<style>a>b{}</style>');
    expect(html`<style>${'a>b{}'}</style>`.markup).toBe('<style>a&#62;b{}</style>');
  });

  it('render lists, numbers and nothing for false, null and undefined', () => {
    const items = ['<a>', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${3}${false}${null}${undefined}`.markup).toBe('<ul><li>&#60;a&#62;</li><li>b</li></ul>3');
    expect(joinHtml(items, '\n').markup).toBe('<li>&#60;a&#62;</li>\n<li>b</li>');
  });
});
