/**
 * Keyless POST /validate: at most limits.keylessIbansPerDayMax IBANs per client per UTC day (spec "Bounds").
 * All or nothing per request, like the credit meter. Counters live in memory for the current day and
 * are persisted (batched, asynchronously) in the accounts environment, so a restart keeps them.
 */
import net from 'node:net';
import { assert } from '../assert.js';
import type { AccountStore } from './account-store.js';
import type { Table } from './table.js';
import { limits } from '../limits.js';

/** IPv6 clients are counted per /64: one subscriber usually holds a whole /64 and can rotate within it. */
const IPV6_PREFIX_HEXTETS = 4;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface KeylessResult {
  readonly ok: boolean;
  /** IBANs this client may still validate today, after this request if it was accepted. */
  readonly remaining: number;
  /** Next 00:00 UTC, when every client starts again from zero. */
  readonly resets_at: string;
}

function utcDayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function nextUtcMidnight(now: Date): string {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS).toISOString();
}

/** Eight 16-bit groups of an IPv6 address, '::' expanded and a trailing dotted IPv4 folded in. */
function ipv6Hextets(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((h) => parseInt(h, 16));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The counting unit for an address: the IPv4 address itself, or the /64 of an IPv6 address. */
export function clientKeyOf(ip: string): string {
  const family = net.isIP(ip);
  assert(family !== 0, `keyless limit needs a bare IP address, got ${JSON.stringify(ip)}`);
  if (family === 4) return ip;
  const groups = ipv6Hextets(ip);
  const isV4Mapped = groups.slice(0, 6).join(':') === '0:0:0:0:0:65535';
  if (isV4Mapped) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return `${groups
    .slice(0, IPV6_PREFIX_HEXTETS)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * How counters reach their table. The accounts store coalesces them (a crash loses at most that window of
 * keyless counts, in the client's favour); the in-memory twin writes at once.
 */
export interface CounterWriter {
  put(key: string, value: () => number): void;
  remove(key: string): void;
  flush(): Promise<void>;
}

/** Writes straight to the table, for tables with no disk behind them. */
export function directWriter(db: Table<number>): CounterWriter {
  return {
    put: (key, value) => void db.put(key, value()),
    remove: (key) => void db.remove(key),
    flush: async () => undefined,
  };
}

export class KeylessLimit {
  private day: string | null = null;
  private counts = new Map<string, number>();

  constructor(
    private readonly db: Table<number>,
    private readonly writer: CounterWriter,
  ) {}

  /** The limit over the accounts environment's keyless table, written through the store's coalescing. */
  static open(store: AccountStore): KeylessLimit {
    const db = store.subDatabase<number>('keyless');
    return new KeylessLimit(db, {
      put: (key, value) => store.putCoalesced(db, key, value),
      remove: (key) => store.removeAsync(db, key),
      flush: () => store.flushWrites(),
    });
  }

  /** Takes `items` IBANs from the client's daily allowance, or nothing if they do not all fit. */
  take(ip: string, items: number, now: Date): KeylessResult {
    assert(Number.isSafeInteger(items) && items >= 0, `bad keyless item count ${items}`);
    this.rollTo(utcDayOf(now));
    const client = clientKeyOf(ip);
    const used = this.counts.get(client);
    const resetsAt = nextUtcMidnight(now);
    if (used === undefined && this.counts.size >= limits.accounts.keylessClientsTrackedMax) {
      return { ok: false, remaining: 0, resets_at: resetsAt };
    }
    const remaining = limits.keylessIbansPerDayMax - (used ?? 0);
    if (items > remaining) return { ok: false, remaining, resets_at: resetsAt };
    if (items > 0) this.record(client, (used ?? 0) + items); // an empty request claims no table slot
    return { ok: true, remaining: remaining - items, resets_at: resetsAt };
  }

  /** Gives back IBANs taken by a request that then failed. A refund after midnight has nothing to return. */
  refund(ip: string, items: number, now: Date): void {
    assert(Number.isSafeInteger(items) && items >= 0, `bad keyless item count ${items}`);
    if (utcDayOf(now) !== this.day) return;
    const client = clientKeyOf(ip);
    const used = this.counts.get(client);
    assert(used !== undefined && used >= items, 'keyless refund exceeds what was taken');
    this.record(client, used - items);
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  private record(client: string, used: number): void {
    assert(this.day !== null, 'keyless day not set');
    this.counts.set(client, used);
    this.writer.put(`${this.day}|${client}`, () => used);
  }

  /**
   * On the first call and at each new UTC day: load that day's counters and drop every earlier
   * day's entries. Keys are `YYYY-MM-DD|client`, so ISO days sort as dates and a day is one range.
   */
  private rollTo(day: string): void {
    if (day === this.day) return;
    this.day = day;
    this.counts = new Map();
    // '}' is the character after '|', so this range is exactly the keys of `day`.
    for (const { key, value } of this.db.getRange({ start: `${day}|`, end: `${day}}` })) {
      this.counts.set(key.slice(day.length + 1), value);
    }
    const stale = [...this.db.getRange({ end: `${day}|` })].map((entry) => entry.key);
    for (const key of stale) this.writer.remove(key);
  }
}
