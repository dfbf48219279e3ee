/**
 * A start time from the `?t=` query parameter: plain seconds (`90`, `90.5`) or `m:ss` / `h:mm:ss`, where
 * minutes and seconds may not exceed 59 once a larger unit is given. Null when it is not one of those.
 */
export function parseTimestamp(input: string | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  const text = input.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) ? seconds : null;
  }
  const parts = text.split(':');
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return null;
  const numbers = parts.map(Number);
  const [a, b, c] = numbers as [number, number, number | undefined];
  if (parts.length === 2) {
    if (b > 59) return null;
    return a * 60 + b;
  }
  if (b > 59 || c! > 59) return null;
  return a * 3600 + b * 60 + c!;
}

/** `1:02:03`, `2:03`, `0:05`; negative and non-finite values show as 0:00. */
export function formatTime(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
