import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { limits } from '../../limits.js';

/** The uWS module surface the REST front uses (both builds export the same API). */
export type Uws = typeof import('uWebSockets.js');

/**
 * A uWS build the front may load: where its native binaries live. Binaries are loaded directly, never
 * through a package's main file, because the trufflesuite main silently swaps in a node:http shim when
 * its binary does not load (the shim lacks getRemoteAddressAsText, pause and others, and is far slower).
 */
export interface UwsBuild {
  readonly name: string;
  /** The binaries' folder; `uws_<platform>_<arch>_<abi>.node` is looked up in it. */
  readonly binaryDir: () => string;
}

export interface UwsChoice {
  readonly module: Uws;
  readonly build: string;
  readonly binary: string;
  /** Builds tried before the chosen one, with why each did not load: logged at start. */
  readonly skipped: readonly { readonly build: string; readonly reason: string }[];
}

const require = createRequire(import.meta.url);

/**
 * Newest first. uWS.js 20.57.0 (republished on npm by btc-vision) has binaries for Node 20, 22, 24 and 25
 * (ABIs 115/127/137/141) and answers malformed request heads with 400/431/505, but needs glibc >= 2.38.
 * The trufflesuite 20.30.0 build runs on glibc >= 2.27 and Node 16 to 20 only (ABIs 93/108/115).
 */
export const uwsBuilds: readonly UwsBuild[] = [
  {
    name: '@btc-vision/uwebsockets.js@20.57.0',
    binaryDir: () => dirname(require.resolve('@btc-vision/uwebsockets.js')),
  },
  {
    name: '@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0',
    binaryDir: () => join(dirname(require.resolve('uWebSockets.js')), '..', 'binaries'),
  },
];

export function binaryFileName(
  platform: string = process.platform,
  arch: string = process.arch,
  abi: string = process.versions.modules,
): string {
  return `uws_${platform}_${arch}_${abi}.node`;
}

/** A real uWS binary exports getParts; the node:http shim does not. */
export function isNativeUws(candidate: unknown): candidate is Uws {
  return (
    typeof (candidate as { getParts?: unknown } | null)?.getParts === 'function' &&
    typeof (candidate as { App?: unknown }).App === 'function'
  );
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? text
  );
}

/** Tries each build in order and returns the first native one; throws with every reason when none loads. */
export function selectUwsBuild(
  builds: readonly UwsBuild[] = uwsBuilds,
  fileName: string = binaryFileName(),
): UwsChoice {
  // uWS 20.57.0 reads its request-head buffer size from the environment when its binary loads; without it, a
  // head that arrives in several reads is refused (431) past 4 KiB. The trufflesuite build ignores it.
  process.env.UWS_HTTP_MAX_HEADERS_SIZE ??= String(limits.httpHeadBytesServed);
  const skipped: { build: string; reason: string }[] = [];
  for (const build of builds) {
    try {
      const binary = join(build.binaryDir(), fileName);
      const loaded: unknown = require(binary);
      if (!isNativeUws(loaded)) {
        skipped.push({
          build: build.name,
          reason: `${binary} is not a native uWS module (no getParts)`,
        });
        continue;
      }
      return { module: loaded, build: build.name, binary, skipped };
    } catch (error) {
      skipped.push({ build: build.name, reason: firstLine(error) });
    }
  }
  const reasons = skipped.map(({ build, reason }) => `${build}: ${reason}`).join('; ');
  throw new Error(
    `no native uWebSockets.js build loads on Node ${process.versions.node} (the node:http fallback is refused): ${reasons}`,
  );
}

let chosen: UwsChoice | undefined;

/** The build the REST front uses, selected once per process. */
export function uwsBuild(): UwsChoice {
  chosen ??= selectUwsBuild();
  return chosen;
}
