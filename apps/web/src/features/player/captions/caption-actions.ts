import { useAccountStore, useSubtitlesStore } from '../../../stores/index.ts';
import { fetchExternalText } from '../../../lib/api/index.ts';
import { extensionClient } from '../../../lib/extension/messaging.ts';
import { customProxyUrls, fetchTextViaProxy } from '../../../lib/proxy-transport.ts';
import { changeSyncedSettings } from '../../../lib/sync/session.ts';
import { playerStore } from '../core/player-store.ts';
import type { CaptionListItem, Cue } from '../core/types.ts';
import { captionDownloader, type CaptionTransport } from './caption-fetch.ts';
import { parseCaptionFile, parseCaptions, toSrt } from './parse.ts';

function transport(): CaptionTransport {
  const proxies = customProxyUrls(useAccountStore.getState().proxyUrls);
  const ext = extensionClient();
  return {
    // A caption file of the source's site, not our API: the client's one helper for such files.
    direct: (url: string) => fetchExternalText(url),
    ...(proxies.length ? { proxy: (url: string) => fetchTextViaProxy(proxies, url) } : {}),
    ...(ext.isActive()
      ? {
          extension: async (url: string) => {
            const reply = await ext.makeRequest({ url, method: 'GET' });
            if (!reply?.success) throw new Error('extension request failed');
            const body = reply.response.body;
            return typeof body === 'string' ? body : JSON.stringify(body);
          },
        }
      : {}),
  };
}

/** A new caption starts in sync and with its own casing (delay and the casing fix reset). */
function remember(language: string, opensubtitles: boolean) {
  const subtitles = useSubtitlesStore.getState();
  subtitles.setDelay(0);
  const changed = subtitles.lastSelectedLanguage !== language;
  subtitles.setSubtitles({
    enabled: true,
    lastSelectedLanguage: language,
    isOpenSubtitles: opensubtitles,
    overrideCasing: false,
  });
  // The last chosen language follows the account (`defaultSubtitleLanguage`, decision 050).
  if (changed && language !== 'custom') changeSyncedSettings({ defaultSubtitleLanguage: language });
}

function show(id: string, language: string, cues: Cue[], assUrl?: string) {
  playerStore
    .getState()
    .setCaption({ id, language, cues, srtData: toSrt(cues), ...(assUrl ? { assUrl } : {}) });
}

/**
 * Downloads (cached 24 h), parses and shows a caption; throws the download's or parser's error on failure. A
 * picture subtitle burned in goes: the title plays on without it.
 */
export async function selectCaption(item: CaptionListItem): Promise<void> {
  const text = await captionDownloader.download(item, transport());
  const cues = parseCaptions(text);
  show(item.id, item.language, cues, item.assUrl);
  remember(item.language, item.opensubtitles);
  playerStore.getState().chooseImageSubtitle(null);
}

/** A caption file from the viewer's device (language "custom"). */
export async function uploadCaption(file: File): Promise<void> {
  const cues = await parseCaptionFile(file.name, await file.text());
  show(`custom-${file.name}`, 'custom', cues);
  useSubtitlesStore.getState().setDelay(0);
  useSubtitlesStore.getState().setSubtitles({ enabled: true, overrideCasing: false });
}

/** Off: no caption, and no picture subtitle burned in (the title plays on without it). */
export function disableCaptions(): void {
  playerStore.getState().setCaption(null);
  playerStore.getState().chooseImageSubtitle(null);
  useSubtitlesStore.getState().setSubtitles({ enabled: false });
}

/**
 * The first caption in the viewer's last language (default English), or null. A full track wins over a
 * forced one (which only has signs and foreign dialogue).
 */
export function captionFor(
  list: readonly CaptionListItem[],
  language: string | null,
): CaptionListItem | null {
  const wanted = language ?? 'en';
  const inLanguage = list.filter((c) => c.language === wanted);
  return inLanguage.find((c) => !c.forced) ?? inLanguage[0] ?? null;
}

/** The C key and the "Enable subtitles" toggle: off when on; else the last used language. */
export async function toggleCaptions(): Promise<void> {
  const { caption, imageSubtitleId } = playerStore.getState();
  if (caption || imageSubtitleId) {
    disableCaptions();
    return;
  }
  const item = captionFor(
    playerStore.getState().captionList,
    useSubtitlesStore.getState().lastSelectedLanguage,
  );
  if (item) await selectCaption(item).catch(() => undefined);
}

/**
 * When a source loads with subtitles enabled, the last used language comes back on its own — unless a
 * caption of its list is shown already (the same title loaded again: another audio track, fresh URLs)
 * or a picture subtitle is burned in.
 */
export async function autoSelectCaption(): Promise<void> {
  const { enabled, lastSelectedLanguage } = useSubtitlesStore.getState();
  if (!enabled || !lastSelectedLanguage) return;
  const { caption, captionList, imageSubtitleId } = playerStore.getState();
  if (imageSubtitleId || (caption && captionList.some((c) => c.id === caption.id))) return;
  const item = captionFor(playerStore.getState().captionList, lastSelectedLanguage);
  if (item) await selectCaption(item).catch(() => undefined);
}
