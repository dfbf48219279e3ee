// Stands in for JASSUB's `rvfc-polyfill` import (vite.config.ts): that polyfill is GPL-3.0, which this
// app's bundle must not carry. Browsers without requestVideoFrameCallback (all current ones have it) get
// the WebVTT rendering instead: the ASS renderer then fails to start and falls back (ass-renderer.ts).
export {};
