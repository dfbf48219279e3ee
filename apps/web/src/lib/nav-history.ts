/**
 * Where the player's back link goes: the most recent page that was not a player, an onboarding page or
 * a quick-search redirect (the app family's client behaviour), else home. The router records every visited path.
 */
const visited: string[] = [];
const SKIP = [/^\/media\//, /^\/s\//, /^\/onboarding/];

export function recordVisit(path: string): void {
  if (visited[visited.length - 1] === path) return;
  visited.push(path);
  if (visited.length > 50) visited.shift();
}

export function backTarget(current: string): string {
  for (let i = visited.length - 1; i >= 0; i--) {
    const path = visited[i]!;
    const pathname = path.split('?')[0]!;
    if (path !== current && !SKIP.some((re) => re.test(pathname))) return path;
  }
  return '/';
}
