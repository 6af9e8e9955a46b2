import { buildProfileRecord } from './src/domain/profiles/engine.js';
import { scoreProfile } from './src/domain/profiles/quality.js';
import { loadEmbeddedDefault } from './src/registry/embedded-default.js';
import { createMemoryDirectory } from './src/registry/memory-directory.js';
import { rowRng, requestKeyOf } from './src/domain/rng.js';
const dir = createMemoryDirectory(loadEmbeddedDefault());
const today = new Date(Date.UTC(2026,10,25));
let t = performance.now();
for (const cc of ['PL','LT','GR','CZ','IS','MU','DE','RU','UA','LV','GB','FR']) {
  for (let i=0;i<2;i++) {
    const rng = rowRng(requestKeyOf('s',cc), i);
    const r = buildProfileRecord({countryCode: cc, gender: i===0?'female':'male', ageMin:18, ageMax:80}, rng, {bank: dir, today});
    const q = scoreProfile(r, {registryBank: r.bank?.bank_code ? dir.bankOf(cc, r.bank.bank_code) : undefined, national: dir, today});
    console.log(cc, r.gender, r.first_name, r.last_name, r.email, r.phone, r.address.city, r.address.postal_code, r.address.street, '|', r.occupation, q.score, q.reasons.map(x=>x.code).join(','));
  }
}
console.log('ms', performance.now()-t);
