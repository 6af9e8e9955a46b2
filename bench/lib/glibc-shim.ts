// Runs the uWS 20.57.0 binary on a glibc older than 2.38, for the parser probe only (never shipped, never in
// npm test). The binary needs three symbols that glibc 2.38 added at version GLIBC_2.38: __isoc23_strtol,
// __isoc23_strtoul and __isoc23_sscanf (the C23 variants, which differ from the C99 ones only in also reading
// 0b binary literals and %b). Two steps are needed, because LD_PRELOAD alone cannot work:
//  1. ld.so checks every version a library needs against the file named in its version-needs entry
//     (GLIBC_2.38 of libc.so.6) before any symbol is looked up, and the real libc.so.6 2.36 does not define
//     it: "version `GLIBC_2.38' not found". A preloaded object cannot stand in for libc.so.6 there.
//     So a copy of the binary gets VER_FLG_WEAK on that entry: a missing weak version is not fatal.
//  2. The symbols themselves then resolve through the global scope, where the preloaded shim defines them at
//     version GLIBC_2.38 (a linker version script), forwarding to the C99 functions.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const shimSource = `#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
int __isoc23_sscanf(const char *s, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsscanf(s, format, ap);
  va_end(ap);
  return n;
}
`;
const versionScript =
  'GLIBC_2.38 { global: __isoc23_strtol; __isoc23_strtoul; __isoc23_sscanf; local: *; };\n';

/** Compiles the shim with gcc in `dir`; returns the shared object's path (for LD_PRELOAD). */
export function buildIsoc23Shim(dir: string): string {
  writeFileSync(join(dir, 'isoc23.c'), shimSource);
  writeFileSync(join(dir, 'isoc23.map'), versionScript);
  const out = join(dir, 'libisoc23.so');
  execFileSync('gcc', [
    '-shared',
    '-fPIC',
    '-O2',
    '-o',
    out,
    join(dir, 'isoc23.c'),
    `-Wl,--version-script=${join(dir, 'isoc23.map')}`,
  ]);
  return out;
}

const SHT_GNU_VERNEED = 0x6ffffffe;
const VER_FLG_WEAK = 0x2;

/**
 * Copies an ELF64 little-endian shared object to `to`, marking the version needs named in `versions` weak.
 * Returns the entries it changed as "file:version".
 */
export function weakenVersionNeeds(
  from: string,
  to: string,
  versions: readonly string[],
): string[] {
  const elf = Buffer.from(readFileSync(from));
  if (elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2 || elf[5] !== 1)
    throw new Error(`${from}: not an ELF64 little-endian file`);
  const sectionsAt = Number(elf.readBigUInt64LE(0x28));
  const sectionSize = elf.readUInt16LE(0x3a);
  const sectionCount = elf.readUInt16LE(0x3c);
  const section = (index: number) => {
    const at = sectionsAt + index * sectionSize;
    return {
      type: elf.readUInt32LE(at + 4),
      offset: Number(elf.readBigUInt64LE(at + 0x18)),
      link: elf.readUInt32LE(at + 0x28),
      info: elf.readUInt32LE(at + 0x2c),
    };
  };
  const cString = (at: number) => elf.toString('latin1', at, elf.indexOf(0, at));
  const changed: string[] = [];
  for (let index = 0; index < sectionCount; index++) {
    const needs = section(index);
    if (needs.type !== SHT_GNU_VERNEED) continue;
    const strings = section(needs.link).offset;
    let need = needs.offset;
    for (let entry = 0; entry < needs.info; entry++) {
      const file = cString(strings + elf.readUInt32LE(need + 4));
      let aux = need + elf.readUInt32LE(need + 8);
      for (let count = elf.readUInt16LE(need + 2); count > 0; count--) {
        const version = cString(strings + elf.readUInt32LE(aux + 8));
        if (versions.includes(version)) {
          elf.writeUInt16LE(elf.readUInt16LE(aux + 4) | VER_FLG_WEAK, aux + 4);
          changed.push(`${file}:${version}`);
        }
        aux += elf.readUInt32LE(aux + 12);
      }
      need += elf.readUInt32LE(need + 12);
    }
  }
  writeFileSync(to, elf);
  return changed;
}
