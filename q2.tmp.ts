import { buildProfileRecord } from './src/domain/profiles/engine.js';
import { surnameAgrees } from './src/domain/profiles/surnames.js';
import { loadEmbeddedDefault } from './src/registry/embedded-default.js';
import { createMemoryDirectory } from './src/registry/memory-directory.js';
import { rowRng, requestKeyOf } from './src/domain/rng.js';
const dir = createMemoryDirectory(loadEmbeddedDefault());
const today = new Date(Date.UTC(2026,10,25));
for (const cc of ['GR','LV','PL','CZ','SK','RU','UA','MK','LT','IS']) {
  const bad: string[] = [];
  for (let i=0;i<3000;i++) {
    const r = buildProfileRecord({countryCode: cc, gender: undefined, ageMin:18, ageMax:80}, rowRng(requestKeyOf('t',cc), i), {bank: dir, today});
    if (!surnameAgrees(cc, r.last_name, r.gender)) bad.push(r.gender[0]+':'+r.last_name);
  }
  console.log(cc, bad.length, [...new Set(bad)].slice(0,15).join(' '));
}
