// WebSocket upgrades of the app's one HTTP server: socket.io (/ws/), collaboration (/collab) and any
// later socket each take their own paths. A handler claims its path here, so the handler that ends
// upgrades nobody takes (collaboration-server.ts, endIfUnclaimed) leaves it alone.
import type { Server } from 'node:http';

const claimed = new WeakMap<Server, Set<string>>();

/** Says that upgrades to this exact path (with or without a trailing slash) are handled. */
export function claimUpgradePath(server: Server, path: string): void {
  const paths = claimed.get(server) ?? new Set<string>();
  paths.add(path.replace(/\/+$/, ''));
  claimed.set(server, paths);
}

/** Whether some handler has claimed the request's path. */
export function upgradePathClaimed(server: Server, pathname: string): boolean {
  return claimed.get(server)?.has(pathname.replace(/\/+$/, '')) ?? false;
}
