import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { rawExchange } from '../helpers/raw-http.js';
import { contrastRatio, enterKey, launchChromium, openConsole, passesMod97 } from './browser.js';

let service: TestService;
let browser: Browser;
let origin: string;
let port: number;
/** Screenshots of every page, for review: <tmpdir>/ibanqa-console-screenshots, of the last run. */
let shots: string;

const corpus = new URL('../statements/corpus/files/', import.meta.url);

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** The texts of one column of the results table in a region. */
function column(page: Page, region: string, index: number): Promise<string[]> {
  return page
    .locator(`#${region} tbody tr td:nth-child(${index})`)
    .evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ''));
}

before(async () => {
  // A fixed place, emptied at each run, so the screenshots of the last run stay there for review.
  shots = join(tmpdir(), 'ibanqa-console-screenshots');
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  [service, browser] = await Promise.all([startTestService(), launchChromium()]);
  port = service.running.httpPort;
  origin = `http://127.0.0.1:${port}`;
});

after(async () => {
  await browser?.close();
  await service?.dispose();
  const keep = process.env.IBANQA_CONSOLE_SCREENSHOTS;
  if (keep !== undefined) await keepForReadme(keep);
});

/**
 * IBANQA_CONSOLE_SCREENSHOTS=docs writes three of them for the README, reduced to a 256-colour palette (sharp,
 * already a dependency for statements) so the repository stays small.
 */
async function keepForReadme(directory: string): Promise<void> {
  mkdirSync(directory, { recursive: true });
  for (const name of ['generate', 'validate', 'statement'])
    await sharp(join(shots, `${name}.png`))
      .png({ palette: true, compressionLevel: 9 })
      .toFile(join(directory, `console-${name}.png`));
}

describe('the console is served as static files with a strict policy', () => {
  test('/console redirects to /console/, whose page carries the security headers', async () => {
    const redirect = await fetch(`${origin}/console`, { redirect: 'manual' });
    assert.equal(redirect.status, 308);
    assert.equal(redirect.headers.get('location'), '/console/');
    const page = await fetch(`${origin}/console/`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy') ?? '';
    assert.match(policy, /(^|; )default-src 'self'(;|$)/);
    assert.match(policy, /(^|; )frame-ancestors 'none'(;|$)/);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    const html = await page.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(html, /<style|\sstyle=/, 'no inline style');
  });

  test('files have their content type and revalidate by ETag (304)', async () => {
    const script = await fetch(`${origin}/console/js/main.js`);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(script.headers.get('cache-control'), 'no-cache');
    const etag = script.headers.get('etag');
    assert.ok(etag !== null && etag.startsWith('"'));
    const again = await fetch(`${origin}/console/js/main.js`, {
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
    assert.equal((await again.arrayBuffer()).byteLength, 0);
    const style = await fetch(`${origin}/console/console.css`);
    assert.equal(style.headers.get('content-type'), 'text/css; charset=utf-8');
  });

  test("the console's modules type-check (plain JS with JSDoc types, strict; console/tsconfig.json)", () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    // Throws with tsc's findings (exit status 1 or 2) when a module does not check.
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'console'], { cwd: root });
  });

  test('no path outside the console is reachable, however it is spelled', async () => {
    for (const path of [
      '/console/../package.json',
      '/console/%2e%2e/package.json',
      '/console/js/..%2f..%2fpackage.json',
      '/console/..%5c..%5cpackage.json',
      '/console//etc/passwd',
      '/console/tsconfig.json',
    ]) {
      const reply = await rawExchange(port, [
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      ]);
      assert.ok(reply.status === 404 || reply.status === 400, `${path}: ${reply.status}`);
      assert.doesNotMatch(reply.body, /"name": "ibanqa"|root:/, path);
    }
  });
});

describe('the console in Chromium', () => {
  test('the policy is enforced: an injected inline script does not run and is reported', async () => {
    const { context, page, problems } = await openConsole(browser, origin);
    const violated = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) =>
            resolve(event.effectiveDirective),
          );
          const script = document.createElement('script');
          script.textContent = 'window.injected = true';
          document.body.append(script);
        }),
    );
    assert.match(violated, /^script-src/);
    assert.equal(await page.evaluate(() => 'injected' in window), false);
    // What the other tests count on: Chromium reports the violation on the console, where they look.
    await page.waitForTimeout(200);
    assert.ok(
      problems.some((problem) => problem.includes('Content Security Policy')),
      problems.join('\n'),
    );
    await context.close();
  });

  test('the key is entered once, kept in session storage only, and every page is labelled', async () => {
    const { context, page, problems } = await openConsole(browser, origin);
    await screenshot(page, 'key');
    await enterKey(page, service.keys.pro);
    assert.equal(
      await page.evaluate(() => sessionStorage.getItem('ibanqa.apiKey')),
      service.keys.pro,
    );
    assert.doesNotMatch(page.url(), /iq_/);
    assert.deepEqual(await context.cookies(), []);
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea')]
        .filter((input) => (input as HTMLInputElement).labels?.length === 0)
        .map((input) => input.id),
    );
    assert.deepEqual(unlabelled, []);
    for (const role of ['banner', 'navigation', 'main', 'contentinfo'] as const)
      assert.equal(await page.getByRole(role).count(), 1, role);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('text and controls of the key page have at least 4.5:1 contrast', async () => {
    const { context, page } = await openConsole(browser, origin);
    await assertContrast(page);
    await context.close();
  });
});

/**
 * WCAG 2.2 AA (1.4.3): every visible element that holds text of its own has 4.5:1 against the first opaque
 * background behind it. Computed in the page, judged by the test's own formula (browser.ts).
 */
async function assertContrast(page: Page): Promise<void> {
  const pairs = await page.evaluate(() => {
    const backgroundOf = (element: Element | null): string => {
      for (let at = element; at !== null; at = at.parentElement) {
        const colour = getComputedStyle(at).backgroundColor;
        if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
      }
      return 'rgb(255, 255, 255)';
    };
    const ownText = (element: Element) =>
      [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent?.trim());
    return [...document.querySelectorAll('body *')]
      .filter((element) => (element as HTMLElement).offsetParent !== null && ownText(element))
      .map((element) => ({
        text: element.textContent?.slice(0, 40),
        colour: getComputedStyle(element).color,
        background: backgroundOf(element),
      }));
  });
  assert.ok(pairs.length > 10);
  for (const pair of pairs)
    assert.ok(contrastRatio(pair.colour, pair.background) >= 4.5, JSON.stringify(pair));
}

/**
 * One flow in a fresh context: the key entered as a user does, the page of `link` opened, `body` run, then the
 * contrast of what it shows, its screenshot, and nothing reported by the page (but what `allowed` lets through).
 */
async function flow(
  key: string,
  link: string,
  shot: string,
  body: (page: Page) => Promise<void>,
  allowed: (problem: string) => boolean = () => false,
): Promise<void> {
  const { context, page, problems, seen } = await openConsole(browser, origin);
  try {
    await enterKey(page, key);
    await page.getByRole('link', { name: link, exact: true }).click();
    await body(page);
    await assertContrast(page);
    await screenshot(page, shot);
    assert.deepEqual(
      problems.filter((problem) => !allowed(problem)),
      [],
    );
    assert.ok(seen.length > 3);
    assert.deepEqual(
      seen.filter((line) => line.includes(key)),
      [],
      'the key is in no URL and no console message',
    );
  } finally {
    await context.close();
  }
}

describe('the console flows in Chromium', () => {
  test('generate: rows appear, and every IBAN passes mod 97', () =>
    flow(service.keys.pro, 'Generate', 'generate', async (page) => {
      const form = page.getByRole('region', { name: 'Generate IBANs' });
      await form.getByLabel('Country').fill('DE');
      await form.getByLabel('Quantity').fill('5');
      await form.getByLabel('Seed (optional)').fill('console-test');
      await form.getByLabel('Include bank details (paid plans)').check();
      await form.getByRole('button', { name: 'Generate', exact: true }).click();
      await page.getByText('5 generated IBANs').waitFor();
      const ibans = await column(page, 'generate-results', 1);
      assert.equal(ibans.length, 5);
      for (const iban of ibans) {
        // SWIFT IBAN Registry, DE entry: 22 characters.
        assert.match(iban, /^DE\d{20}$/);
        assert.ok(passesMod97(iban), iban);
      }
      assert.equal(new Set(ibans).size, 5);
      assert.deepEqual(await column(page, 'generate-results', 2), Array(5).fill('valid'));
    }));

  test('validate: each row shows its reason, and the CSV copy carries them', () =>
    flow(service.keys.pro, 'Validate', 'validate', async (page) => {
      const section = page.getByRole('region', { name: 'Validate a list' });
      // ISO 13616's example IBAN (valid); the same with its last digit changed (the test's own mod 97 refuses
      // it); one character short of the 22 the SWIFT registry gives DE; a country code the registry lacks.
      const list = [
        'DE89 3704 0044 0532 0130 00',
        'DE89370400440532013001',
        'DE8937040044053201300',
        'XX89370400440532013000',
      ];
      assert.ok(passesMod97(list[0] as string));
      assert.ok(!passesMod97(list[1] as string));
      await section.getByLabel('IBANs, one per line').fill(list.join('\n'));
      await section.getByRole('button', { name: 'Validate' }).click();
      await page.getByText('4 checked, 3 invalid').waitFor();
      assert.deepEqual(await column(page, 'validate-results', 1), list);
      const verdicts = await column(page, 'validate-results', 2);
      assert.deepEqual(verdicts, ['valid', 'invalid', 'invalid', 'invalid']);
      const reasons = ['—', 'invalid_checksum', 'invalid_length', 'unsupported_country'];
      assert.deepEqual(await column(page, 'validate-results', 3), reasons);
      await section.getByRole('button', { name: 'Copy as CSV' }).click();
      await page.getByText('Copied 4 rows as CSV.').waitFor();
      const lines = (await page.evaluate(() => navigator.clipboard.readText())).split('\r\n');
      const header = 'iban,valid,error,message,country_code,national_check,bank_name,swift_code';
      assert.equal(lines[0], header);
      assert.equal(lines.length, 6, 'header, four rows, and the final line break');
      list.forEach((iban, index) => {
        const reason = index === 0 ? '' : reasons[index];
        const line = lines[index + 1] ?? '';
        assert.ok(line.startsWith(`${iban},${index === 0},${reason},`), line);
      });
    }));

  test('profile: shown as the API gives it for the same request', () =>
    flow(service.keys.pro, 'Profile', 'profile', async (page) => {
      const profile = page.getByRole('region', { name: 'Synthetic profile' });
      await profile.getByLabel('Country').fill('DE');
      await profile.getByLabel('Seed (optional)').fill('console');
      await profile.getByRole('button', { name: 'Create profile' }).click();
      const expected = await call(service.base, '/profile', {
        key: service.keys.pro,
        body: { country: 'DE', gender: 'random', seed: 'console' },
      });
      const person = expected.body.profile;
      const name = `${person.first_name} ${person.last_name}`;
      await profile.getByRole('heading', { name }).waitFor();
      await profile.getByText(person.iban, { exact: true }).waitFor();
      assert.ok(passesMod97(person.iban));
    }));

  test('fixture manifest: compiled, verified and downloaded as the API gives it', () =>
    flow(service.keys.pro, 'Fixture manifest', 'manifest', async (page) => {
      const manifest = page.getByRole('region', { name: 'Fixture manifest' });
      const fixtures = [
        { country: 'DE', iban: 'DE89 3704 0044 0532 0130 00', expected_valid: true },
        { country: 'DE', iban: 'DE89370400440532013001', expected_valid: false },
      ];
      const lines = fixtures.map((f) => `${f.country}, ${f.iban}, ${f.expected_valid}`);
      await manifest.getByLabel(/^Fixtures, one per line/).fill(lines.join('\n'));
      await manifest.getByRole('button', { name: 'Compile' }).click();
      await manifest.getByText('every fixture behaves as expected').waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        manifest.getByRole('link', { name: 'Download manifest' }).click(),
      ]);
      const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
      // Compilation is deterministic (no clock): the same request gives the same signed manifest.
      const compiled = await call(service.base, '/fixture-manifest/compile', {
        key: service.keys.pro,
        body: { fixtures },
      });
      assert.deepEqual(saved, compiled.body.manifest);
      assert.equal(saved.format, 'service-fixture-manifest/1.0');
    }));

  test('statement: uploaded, its review followed to the report with the tampering found', () =>
    flow(service.keys.pro, 'Statement', 'statement', async (page) => {
      const section = page.getByRole('region', { name: 'Statement review' });
      // The corpus file's own JSON says what it is: an Austrian statement whose closing balance is off.
      const truthFile = new URL('at-soll-haben-arithmetic.json', corpus);
      const truth = JSON.parse(readFileSync(truthFile, 'utf8'));
      await section
        .getByLabel(/^Statement file/)
        .setInputFiles(new URL(truth.file, corpus).pathname);
      await section.getByRole('button', { name: 'Upload and review' }).click();
      await section.getByRole('heading', { name: 'Report' }).waitFor({ timeout: 120_000 });
      await section.getByText(/^Review [0-9a-f]{32}: completed\.$/).waitFor();
      for (const code of truth.codes) await section.getByText(new RegExp(`^${code} \\(`)).waitFor();
      await section.getByText(truth.fields.holder, { exact: true }).waitFor();
      await section.getByText(truth.fields.iban, { exact: true }).waitFor();
    }));

  test('balances: the page shows what GET /usage gives the key', () =>
    flow(service.keys.starter, 'Balances', 'usage', async (page) => {
      const usage = await call(service.base, '/usage', { key: service.keys.starter });
      await page.getByText('Balances per credit kind').waitFor();
      const rows = await page
        .locator('#usage-results tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
      const apiCalls = usage.body.credits.api_calls;
      assert.deepEqual(rows[0], [
        'API calls',
        String(apiCalls.allowance),
        String(apiCalls.used),
        String(apiCalls.reserved),
        String(apiCalls.remaining),
        apiCalls.period_end ?? '—',
      ]);
      assert.equal(rows.length, Object.keys(usage.body.credits).length);
      await page.getByText(usage.body.plan_name, { exact: true }).waitFor();
    }));

  test('429: an exhausted key gets the error message and its request id on screen', async () => {
    // The Free plan's 50 API calls, spent in one request.
    const spent = await call(service.base, '/generate', {
      key: service.keys.free,
      body: { country: 'DE', quantity: 50 },
    });
    assert.equal(spent.status, 200);
    // Chromium reports a failed fetch on the console itself; that line is expected here, nothing else.
    const failedFetch = (problem: string) => problem.includes('status of 429');
    await flow(
      service.keys.free,
      'Generate',
      '429',
      async (page) => {
        const [refused] = await Promise.all([
          page.waitForResponse((response) => response.url().endsWith('/api/v1/generate')),
          page.getByRole('button', { name: 'Generate', exact: true }).click(),
        ]);
        assert.equal(refused.status(), 429);
        const body = await refused.json();
        assert.equal(body.error, 'API call limit reached');
        const alert = page.getByRole('alert').filter({ hasText: 'HTTP status 429' });
        await alert.waitFor();
        assert.deepEqual((await alert.innerText()).split('\n').filter(Boolean), [
          `${body.error}: ${body.message}`,
          'HTTP status 429',
          `Request id: ${refused.headers()['x-request-id']}`,
        ]);
      },
      failedFetch,
    );
  });
});

/**
 * Presses Tab until the focused element is `target` (an id, or `link:<text>` for a link), checking on the way
 * that every stop shows where focus is. Tab wraps past the end of the page, as in a browser.
 */
async function tabTo(page: Page, target: string, presses = 40): Promise<void> {
  for (let press = 0; press < presses; press++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      // Past the last stop, focus leaves the page for the browser's own UI: the body is active meanwhile.
      if (element === document.body) return undefined;
      const style = getComputedStyle(element);
      const name = element.tagName === 'A' ? `link:${element.textContent}` : element.id;
      return { name, outline: style.outlineStyle, width: style.outlineWidth };
    });
    if (focused === undefined) continue;
    assert.notEqual(focused.outline, 'none', `focus on ${focused.name} is visible`);
    assert.equal(focused.width, '3px', focused.name);
    if (focused.name === target) return;
  }
  assert.fail(`${target} not reached in ${presses} presses of Tab`);
}

describe('the console by keyboard and on a narrow screen', () => {
  test('keyboard only: key, then a generated list, with focus always visible', async () => {
    const { context, page, problems } = await openConsole(browser, origin);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await tabTo(page, 'key-input');
    await page.keyboard.type(service.keys.pro);
    await page.keyboard.press('Enter');
    // The page changes and the keyboard lands on its heading.
    await page.waitForFunction(() => document.activeElement?.id === 'h-generate');
    await tabTo(page, 'gen-quantity');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await tabTo(page, 'gen-seed');
    await page.keyboard.type('keyboard');
    await tabTo(page, 'gen-bank');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.getByText('3 generated IBANs').waitFor();
    for (const iban of await column(page, 'generate-results', 1)) assert.ok(passesMod97(iban));
    // Copy as CSV is the next stop after Generate.
    await tabTo(page, 'generate-copy');
    await page.keyboard.press('Enter');
    await page.getByText('Copied 3 rows as CSV.').waitFor();
    // On to another page by its link in the navigation: the keyboard lands on that page's heading.
    await tabTo(page, 'link:Validate');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'h-validate');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('320 px: every page fits the width (wide tables scroll in their own box)', async () => {
    const { context, page, problems } = await openConsole(browser, origin, {
      width: 320,
      height: 700,
    });
    await enterKey(page, service.keys.pro);
    const section = page.getByRole('region', { name: 'Generate IBANs' });
    await section.getByLabel('Include bank details (paid plans)').check();
    await section.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText('5 generated IBANs').waitFor();
    for (const name of [
      'key',
      'generate',
      'validate',
      'profile',
      'manifest',
      'statement',
      'usage',
    ]) {
      await page.evaluate((hash) => (location.hash = hash), `#${name}`);
      await page.locator(`#page-${name}`).waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `#${name} is ${width} px wide`);
    }
    await page.evaluate(() => (location.hash = '#generate'));
    await screenshot(page, 'generate-320px');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
