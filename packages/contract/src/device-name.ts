/** What a user agent says of itself, as names people know ("Firefox", "Android"); null when it doesn't say. */
export interface BrowserAndSystem {
  browser: string | null;
  os: string | null;
}

/**
 * The browser and the system of a user agent: how the server names a session it was given no name for
 * and the web names a new passkey or session, so both sides name the same device alike. Browsers on iOS that say only
 * their own token (CriOS, FxiOS) read as Safari: the name only helps the viewer recognise the device.
 */
export function browserAndSystemOf(userAgent: string): BrowserAndSystem {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return { browser, os };
}
