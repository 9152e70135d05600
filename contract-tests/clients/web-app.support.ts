import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';

export const WIDE = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.0, 2.1 and 2.2 at levels A and AA: the rules axe-core tags for each. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe-core in the page (evaluated over the DevTools protocol, so the page's CSP stays on): every WCAG 2.2 A/AA violation, whatever its impact. */
export async function axeViolations(tab: Page): Promise<string[]> {
  await tab.evaluate(AXE);
  return tab.evaluate(async (tags) => {
    const axe = (globalThis as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((violation) => `${violation.id} at ${violation.nodes.map((node) => String(node.target[0])).join(', ')}`);
  }, WCAG_AA);
}

/** The page is no wider than the screen; else the elements that stick out (for the message). */
export async function horizontalOverflow(tab: Page): Promise<string[]> {
  return tab.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px > ${width})`);
  });
}

/** WCAG's contrast ratio of two CSS `rgb()` colours. */
export function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A server on a port chosen beforehand (the cookie session checks Origin against PUBLIC_URL, so the
 * two must agree); a port taken by another process between the probe and the listen is chosen again.
 */
export async function startServerOnFreePort(env: (port: number) => Record<string, string>): Promise<TestServer> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      return await startServer({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env(port) } });
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}
