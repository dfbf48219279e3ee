import { isAudioLanguage } from '../../../lib/languages.ts';
import { preferredAudioLanguage } from '../../../stores/index.ts';
import { deviceCodecs } from '../display/device-codecs.ts';

/**
 * What every scrape of this instance is told about the viewer's device (the library picks direct play,
 * remux or transcode from it, and the audio track to start with).
 */
export interface DeviceQuery {
  /** The contract's `DEVICE_CODECS` this browser decodes. */
  codecs: readonly string[];
  /** The preferred audio language (ISO 639), or null to leave it to the server. */
  audioLanguage: string | null;
}

/** This browser's codecs and the viewer's audio language as they are now. */
export function deviceQuery(): DeviceQuery {
  const audio = preferredAudioLanguage();
  return { codecs: deviceCodecs(), audioLanguage: isAudioLanguage(audio) ? audio : null };
}

/** The scrape query's fields of a device (`scrapeQuery`'s extra): nothing for what is unknown. */
export const deviceFields = (device: DeviceQuery) => ({
  ...(device.codecs.length ? { codecs: device.codecs } : {}),
  ...(device.audioLanguage ? { audioLanguage: device.audioLanguage } : {}),
});
