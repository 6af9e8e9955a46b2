/**
 * Headers of every console file. The policy allows the console's own files and calls to its own origin only:
 * no inline script or style, no eval, no plugins, no framing (frame-ancestors), no form posts anywhere (the
 * key form is handled by script; `form-action 'none'` also keeps a key from ever being submitted into a URL).
 * `blob:` images and `data:` are left out: the console draws nothing from them; the manifest download is an
 * anchor to a blob URL, which CSP does not govern.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** OWASP Secure Headers Project recommendations for a page, beyond the policy. */
export const consoleHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': consoleContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  // Files change only with a release and carry a strong ETag: revalidated each load, a 304 while unchanged.
  'cache-control': 'no-cache',
};
