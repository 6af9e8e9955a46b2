/**
 * prom-client metric children by three label values, each made once. `metric.labels(...)` builds and validates a
 * label object on every call; on a path that serves thousands of requests a second the child is looked up here
 * instead (three Map reads, no allocation). The label values come from closed sets, so the cache stays small.
 */
export class LabelCache<Child> {
  private readonly children = new Map<string, Map<string, Map<string, Child>>>();

  /** `make`: the metric's `labels`, called once per label set. */
  constructor(private readonly make: (first: string, second: string, third: string) => Child) {}

  get(first: string, second: string, third: string): Child {
    let level1 = this.children.get(first);
    if (level1 === undefined)
      this.children.set(first, (level1 = new Map<string, Map<string, Child>>()));
    let level2 = level1.get(second);
    if (level2 === undefined) level1.set(second, (level2 = new Map<string, Child>()));
    let child = level2.get(third);
    if (child === undefined) level2.set(third, (child = this.make(first, second, third)));
    return child;
  }
}
