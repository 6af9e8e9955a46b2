import { limits } from '../../src/limits.js';

/** A request head as a raw client sends it: the chunks go out as separate writes, `gapMs` apart. */
export interface HeadShape {
  readonly name: string;
  readonly chunks: readonly (string | Buffer)[];
  readonly gapMs?: number;
}

export const getHealthz = (extra = '') => `GET /healthz HTTP/1.1\r\nHost: a\r\n${extra}\r\n`;
/** `count` short header fields (`h0: v` ...). */
export const fields = (count: number) =>
  Array.from({ length: count }, (_, index) => `h${index}: v\r\n`).join('');
export const headerOf = (bytes: number, name = 'x-filler') =>
  `${name}: ${'a'.repeat(bytes - name.length - 4)}\r\n`;

/** Malformed heads: each must get a 4xx or a close, never a hang (what a build guarantees: test/api/http-parser.test.ts). */
export const malformedHeads: readonly HeadShape[] = [
  { name: 'HTTP/1.0 request', chunks: ['GET /healthz HTTP/1.0\r\nHost: a\r\n\r\n'] },
  { name: 'absolute-form target', chunks: ['GET http://a/healthz HTTP/1.1\r\nHost: a\r\n\r\n'] },
  { name: 'bare LF line endings', chunks: ['GET /healthz HTTP/1.1\nHost: a\n\n'] },
  { name: 'NUL in a header value', chunks: [getHealthz('X-Odd: a\0b\r\n')] },
  { name: 'control byte in a header value', chunks: [getHealthz('X-Odd: a\x01b\r\n')] },
  // uWS 20.57.0 serves up to 98 fields and answers 431 from 99; trufflesuite 20.30.0 serves 48 and hangs from 49
  // (measured, Host included).
  { name: '200 header fields', chunks: [getHealthz(fields(199))] },
  {
    name: 'TLS ClientHello',
    chunks: [Buffer.from(`16030100a5010000a10303${'00'.repeat(160)}`, 'hex')],
  },
  { name: 'head over 128 KiB in one write', chunks: [getHealthz(headerOf(140 * 1024))] },
];

const validateBody = '{"ibans":["DE89370400440532013000"]}';
const post = 'POST /api/v1/validate HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n';

/** Framing a proxy and this service could read differently: refused with 400 and a close. */
export const smugglingHeads: readonly HeadShape[] = [
  {
    name: 'conflicting Content-Length',
    chunks: [
      `${post}Content-Length: ${validateBody.length}\r\nContent-Length: 5\r\n\r\n${validateBody}`,
    ],
  },
  {
    name: 'Transfer-Encoding: gzip, chunked',
    chunks: [
      `${post}Transfer-Encoding: gzip, chunked\r\n\r\n${validateBody.length.toString(16)}\r\n${validateBody}\r\n0\r\n\r\n`,
    ],
  },
  {
    name: 'Content-Length with Transfer-Encoding',
    chunks: [`${post}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
  },
];

/** Well-formed heads that must be served (200). */
export const servedHeads: readonly HeadShape[] = [
  {
    name: `head of ${limits.httpHeadBytesServed - 64} bytes in one write`,
    chunks: [getHealthz(headerOf(limits.httpHeadBytesServed - 64))],
  },
  {
    name: `head of about ${limits.httpHeadBytesServed - 256} bytes in 18 writes`,
    chunks: [
      'GET /healthz HTTP/1.1\r\nHost: a\r\n',
      ...Array.from({ length: 16 }, (_, index) =>
        headerOf((limits.httpHeadBytesServed - 256) / 16, `x-part-${index}`),
      ),
      '\r\n',
    ],
    gapMs: 15,
  },
  {
    name: 'head of about 3.6 KiB in 8 writes',
    chunks: [
      'GET /healthz HTTP/1.1\r\nHost: a\r\n',
      ...Array.from({ length: 6 }, (_, index) => headerOf(600, `x-part-${index}`)),
      '\r\n',
    ],
    gapMs: 15,
  },
];
