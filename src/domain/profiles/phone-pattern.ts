import type { Rng } from '../rng.js';
import { rngBelow } from '../rng.js';

/**
 * A random string matching one of libphonenumber's national-number patterns. The patterns use a small regex
 * subset (digits, `\d`, classes, `(?:...)` groups, alternation, `{n}`, `{n,m}`, `?`, and lookaheads), so a
 * tiny parser walks it: every alternative and repetition count is drawn uniformly, which spreads the numbers
 * over the plan's allocations instead of one example prefix. Lookaheads are skipped here; the caller checks
 * the result against the real pattern and possible lengths and draws again when it fails.
 */
type Node =
  | { readonly kind: 'chars'; readonly chars: string }
  | { readonly kind: 'alt'; readonly options: readonly Node[][] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly max: number };

const digits = '0123456789';
/** `*` and `+` are unbounded in a regex; a national number is at most 17 digits (ITU-T E.164 allows 15). */
const openRepeatMax = 17;

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node[][] {
    const options = this.alternatives();
    if (this.at !== this.source.length) throw new Error(`unexpected ${this.source[this.at]}`);
    return options;
  }

  private alternatives(): Node[][] {
    const options: Node[][] = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      options.push(this.sequence());
    }
    return options;
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (
      this.at < this.source.length &&
      this.source[this.at] !== '|' &&
      this.source[this.at] !== ')'
    ) {
      const atom = this.atom();
      if (atom !== null) nodes.push(this.quantified(atom));
    }
    return nodes;
  }

  private atom(): Node | null {
    const char = this.source[this.at] as string;
    if (char === '(') return this.group();
    if (char === '[') return this.charClass();
    this.at++;
    if (char === '\\') {
      const escaped = this.source[this.at++];
      if (escaped === 'd') return { kind: 'chars', chars: digits };
      throw new Error(`escape \\${escaped ?? ''}`);
    }
    if (/\d/.test(char)) return { kind: 'chars', chars: char };
    throw new Error(`unsupported ${char}`);
  }

  private group(): Node | null {
    this.at++;
    let lookahead = false;
    if (this.source.startsWith('?:', this.at)) this.at += 2;
    else if (this.source.startsWith('?=', this.at) || this.source.startsWith('?!', this.at)) {
      this.at += 2;
      lookahead = true;
    }
    const options = this.alternatives();
    if (this.source[this.at] !== ')') throw new Error('unclosed group');
    this.at++;
    return lookahead ? null : { kind: 'alt', options };
  }

  private charClass(): Node {
    const end = this.source.indexOf(']', this.at);
    const body = this.source.slice(this.at + 1, end).replaceAll('\\d', '0-9');
    this.at = end + 1;
    let chars = '';
    for (let i = 0; i < body.length; i++) {
      const from = body.charCodeAt(i);
      if (body[i + 1] === '-' && i + 2 < body.length) {
        for (let code = from; code <= body.charCodeAt(i + 2); code++)
          chars += String.fromCharCode(code);
        i += 2;
      } else chars += body[i];
    }
    return { kind: 'chars', chars };
  }

  private quantified(node: Node): Node {
    const char = this.source[this.at];
    if (char === '?') return this.repeat(node, 0, 1, 1);
    if (char === '*') return this.repeat(node, 0, openRepeatMax, 1);
    if (char === '+') return this.repeat(node, 1, openRepeatMax, 1);
    if (char !== '{') return node;
    const end = this.source.indexOf('}', this.at);
    const [low = '', high] = this.source.slice(this.at + 1, end).split(',');
    const min = Number(low);
    const max = high === undefined ? min : high === '' ? openRepeatMax : Number(high);
    return this.repeat(node, min, max, end - this.at + 1);
  }

  private repeat(node: Node, min: number, max: number, width: number): Node {
    this.at += width;
    return { kind: 'repeat', node, min, max };
  }
}

export interface PatternSampler {
  (rng: Rng): string;
}

/** A sampler for the pattern; throws on syntax outside the subset (the caller then has no sampler). */
export function patternSampler(source: string): PatternSampler {
  const root = new Parser(source).parse();
  const draw = (node: Node, rng: Rng): string => {
    if (node.kind === 'chars') return node.chars.charAt(rngBelow(rng, node.chars.length));
    if (node.kind === 'alt')
      return drawSequence(node.options[rngBelow(rng, node.options.length)] ?? [], rng);
    let out = '';
    const count = node.min + rngBelow(rng, node.max - node.min + 1);
    for (let i = 0; i < count; i++) out += draw(node.node, rng);
    return out;
  };
  const drawSequence = (nodes: readonly Node[], rng: Rng): string => {
    let out = '';
    for (const node of nodes) out += draw(node, rng);
    return out;
  };
  return (rng) => drawSequence(root[rngBelow(rng, root.length)] ?? [], rng);
}
