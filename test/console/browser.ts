import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (.ci/run installs it); playwright-core drives it over CDP, no downloaded browser. */
export const chromiumPath = '/usr/bin/chromium';

/**
 * Headless, no sandbox (CI runs as root in a container), and nothing that reaches out to Google's services: on a
 * closed network those background connections are refused and slow the start down.
 */
const launchArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One browser per test file: its start is the costly part. playwright gives it a fresh temporary profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: launchArgs });
}

export interface ConsolePage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors, uncaught exceptions and CSP violations the page reported. */
  readonly problems: string[];
  /** Every console message of any kind and every URL the page requested: where a key must never appear. */
  readonly seen: string[];
}

/** A fresh context (own session storage) on the console, collecting everything the page complains about. */
export async function openConsole(
  browser: Browser,
  origin: string,
  options: { width?: number; height?: number } = {},
): Promise<ConsolePage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1100, height: options.height ?? 800 },
    acceptDownloads: true,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  context.setDefaultTimeout(30_000);
  // tsx compiles the tests with esbuild's keepNames, which wraps named functions in page.evaluate callbacks in
  // a __name helper the page does not have; this identity stands in for it (CDP adds it, so CSP does not apply).
  await context.addInitScript('globalThis.__name = (target) => target;');
  const page = await context.newPage();
  const problems: string[] = [];
  const seen: string[] = [];
  page.on('request', (request) => seen.push(request.url()));
  page.on('console', (message) => {
    seen.push(message.text());
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(`${origin}/console/`);
  return { context, page, problems, seen };
}

/** Enters the key on the key page, as a user does. */
export async function enterKey(page: Page, key: string): Promise<void> {
  await page.goto(`${page.url().split('#')[0]}#key`);
  await page.getByLabel('Your API key').fill(key);
  await page.getByRole('button', { name: 'Use this key' }).click();
  await page.getByRole('heading', { name: 'Generate IBANs' }).waitFor();
}

/** ISO 13616 / ISO 7064 mod 97-10, written here independently of the service: rearrange, letters to 10-35. */
export function passesMod97(iban: string): boolean {
  const compact = iban.replaceAll(' ', '');
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  const digits = [...rearranged]
    .map((char) => (/[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char))
    .join('');
  return /^\d+$/.test(digits) && BigInt(digits) % 97n === 1n;
}

/** WCAG 2.2 contrast ratio (relative luminance of sRGB) of two `rgb(r, g, b)` colours. */
export function contrastRatio(foreground: string, background: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}
