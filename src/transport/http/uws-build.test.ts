// Goal: the REST front loads the newest uWS build whose binary runs here, says why it skipped newer ones, and
// never accepts the node:http shim. Method: the real packages' real binaries (the 20.57.0 ones need glibc 2.38
// and fail to load on older systems), the trufflesuite shim as a module that is not native, and a missing ABI.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import {
  binaryFileName,
  isNativeUws,
  selectUwsBuild,
  uwsBuilds,
  type UwsBuild,
} from './uws-build.js';

const require = createRequire(import.meta.url);
const [newest, current] = uwsBuilds as [UwsBuild, UwsBuild];

/** glibc of this machine, from getconf (an independent reading of what the 20.57.0 binaries need). */
function glibcVersion(): [number, number] {
  const text = execFileSync('getconf', ['GNU_LIBC_VERSION'], { encoding: 'utf8' }); // "glibc 2.36"
  const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(text)?.slice(1) ?? []).map(Number);
  return [major, minor];
}
const [major, minor] = glibcVersion();
const glibcBelow238 = major < 2 || (major === 2 && minor < 38);
const nodeMajor = Number(process.versions.node.split('.')[0]);

test('the builds are tried newest first: 20.57.0 (Node 20-25, glibc 2.38) before trufflesuite 20.30.0 (Node 16-20)', () => {
  assert.match(newest.name, /20\.57\.0/);
  assert.match(current.name, /trufflesuite.*20\.30\.0/);
});

test('on this system the choice follows glibc and the Node ABI, and every skipped build says why', () => {
  const choice = selectUwsBuild();
  assert.ok(isNativeUws(choice.module));
  if (glibcBelow238) {
    assert.equal(choice.build, current.name, 'glibc < 2.38: the 20.57.0 binaries cannot load');
    assert.equal(choice.skipped.length, 1);
    assert.equal(choice.skipped[0]?.build, newest.name);
    assert.match(choice.skipped[0]?.reason ?? '', /GLIBC_2\.38/);
  } else {
    assert.equal(choice.build, newest.name);
    assert.deepEqual(choice.skipped, []);
  }
  assert.equal(choice.binary.endsWith(binaryFileName()), true);
  assert.ok(nodeMajor >= 20);
});

test('a Node ABI no build ships (e.g. a future Node) falls through every build and throws with each reason', () => {
  assert.throws(
    () => selectUwsBuild(uwsBuilds, binaryFileName(process.platform, process.arch, '999')),
    (error: Error) => {
      assert.match(error.message, /no native uWebSockets\.js build loads/);
      assert.match(error.message, /node:http fallback is refused/);
      assert.ok(error.message.includes(newest.name) && error.message.includes(current.name));
      return true;
    },
  );
});

test('a module without the native API (the trufflesuite node:http shim) is refused, not used', () => {
  const shimDir = join(dirname(require.resolve('uWebSockets.js')), '..', 'dist');
  const shim: UwsBuild = { name: 'trufflesuite shim', binaryDir: () => shimDir };
  assert.equal(isNativeUws(require(join(shimDir, 'index.js'))), false);
  assert.throws(
    () => selectUwsBuild([shim], 'index.js'),
    /trufflesuite shim: .*not a native uWS module/,
  );
});
