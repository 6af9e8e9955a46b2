import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** The process that listens on a TCP port, as far as /proc lets this process see it. */
export interface PortHolder {
  readonly pid: number;
  readonly command: string;
}

const tcpListen = '0A';

/**
 * Who holds a listening TCP port, read from /proc (Linux). Hand-written because the packages that answer it
 * (find-process, port-pid) shell out to lsof, netstat or ss, which a slim server image often lacks; this
 * reads the same kernel tables directly. Any failure (another OS, a process of another user) is `undefined`:
 * the caller's message then names the port alone.
 */
export function portHolder(port: number): PortHolder | undefined {
  try {
    const inodes = listeningInodes(port);
    if (inodes.size === 0) return undefined;
    return processWithSocket(inodes);
  } catch {
    return undefined;
  }
}

function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || fields[3] !== tcpListen) continue;
      if (local.slice(local.lastIndexOf(':') + 1) === hexPort && fields[9] !== undefined)
        inodes.add(fields[9]);
    }
  }
  return inodes;
}

function processWithSocket(inodes: ReadonlySet<string>): PortHolder | undefined {
  const targets = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      if (targets.has(link)) return { pid: Number(entry), command: commandLine(entry) };
    }
  }
  return undefined;
}

function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}
