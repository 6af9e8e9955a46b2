// Injected write failures for LMDB state: sub-databases opened after this throw from `put` while their name is in
// the returned set, inside the write transaction lmdb-js runs, as a failing write would.
import type { AccountStore, SubDatabaseName } from '../../src/accounts/account-store.js';

export function failingPuts(store: AccountStore): Set<SubDatabaseName> {
  const failing = new Set<SubDatabaseName>();
  const open = store.subDatabase.bind(store);
  (store as { subDatabase: (name: SubDatabaseName) => unknown }).subDatabase = (name) =>
    new Proxy(open(name), {
      get(target, property) {
        if (property === 'put' && failing.has(name))
          return () => {
            throw new Error(`injected: the ${name} write fails`);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return failing;
}
