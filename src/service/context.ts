/**
 * The one place a run context is built. A thread (the main thread, or a pool worker) holds the
 * capabilities it has; every op gets a context with exactly the capabilities it declared, and reaching
 * for an undeclared one throws at once instead of quietly working on one thread and not the other.
 */
import type { RequestKey } from '../domain/rng.js';
import type {
  BaseContext,
  Capabilities,
  Capability,
  RunContext,
} from '../contract/capabilities.js';
import type { CallerView } from '../contract/caller.js';

const allCapabilities: readonly Capability[] = [
  'requestKey',
  'bank',
  'routing',
  'registry',
  'registryIndex',
  'watches',
  'usage',
  'profileProvider',
  'manifestKeys',
  'statements',
];
/** Capabilities that come with each request rather than with the thread. */
const perRequest: ReadonlySet<Capability> = new Set<Capability>(['requestKey']);

export interface ContextBase {
  /** Only when the op declared 'requestKey'. */
  readonly requestKey?: RequestKey | undefined;
  readonly caller: CallerView;
  readonly rowStart: number;
}

/** What the factory reads of an op: its name (templates are kept per op) and the capabilities it declared. */
interface OpNeeds<N extends Capability> {
  readonly name: string;
  readonly needs: readonly N[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class ContextFactory {
  /** Per op: a frozen prototype holding its capabilities and the clock; a context adds the per-request fields. */
  private readonly templates = new Map<string, object>();

  constructor(
    private readonly capabilities: Partial<Capabilities>,
    private readonly now: () => Date,
    /** Names this thread in errors ('main thread', 'pool worker'). */
    private readonly thread: string,
  ) {}

  /** The context of one run of `op`: its declared capabilities (from the template) and this request's fields. */
  contextFor<N extends Capability>(op: OpNeeds<N>, base: ContextBase): RunContext<N> {
    let template = this.templates.get(op.name);
    if (template === undefined) this.templates.set(op.name, (template = this.templateOf(op)));
    // Object.create answers `any`: the template holds exactly the declared capabilities (templateOf checked
    // them), so the object built on it is the op's RunContext once the per-request fields are set.
    const context = Object.create(template) as RunContext<N>;
    if (base.requestKey !== undefined)
      Object.defineProperty(context, 'requestKey', { value: base.requestKey, enumerable: true });
    const fields: Mutable<Pick<BaseContext, 'caller' | 'rowStart'>> = context;
    fields.caller = base.caller;
    fields.rowStart = base.rowStart;
    return context;
  }

  private templateOf(op: OpNeeds<Capability>): object {
    const template: Record<string, unknown> = { now: this.now };
    for (const capability of allCapabilities) {
      if (op.needs.includes(capability) && perRequest.has(capability)) continue;
      if (op.needs.includes(capability)) {
        const held = this.capabilities[capability];
        if (held === undefined)
          throw new Error(
            `${op.name} needs the capability '${capability}', which a ${this.thread} does not have`,
          );
        template[capability] = held;
      } else {
        Object.defineProperty(template, capability, {
          get: () => {
            throw new Error(
              `${op.name} used the capability '${capability}' without declaring it in its needs`,
            );
          },
        });
      }
    }
    return Object.freeze(template);
  }
}
