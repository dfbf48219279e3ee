import { useQuery } from '@tanstack/react-query';
import { isReleased, libraryKey, mediaPath, sortQualities, type StreamQuality } from '@marquee/contract';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clock } from '../../../lib/clock.ts';
import {
  useLibraryStore,
  usePlayerPrefsStore,
  useSubtitlesStore,
  SUBTITLE_COLORS,
} from '../../../stores/index.ts';
import {
  disableCaptions,
  selectCaption,
  toggleCaptions,
  uploadCaption,
} from '../captions/caption-actions.ts';
import { sortCaptions } from '../captions/caption-fetch.ts';
import { CAPTION_DELAY_RANGE, clampDelaySetting } from '../captions/caption-style.ts';
import { uploadExtensions } from '../captions/parse.ts';
import { requests, usePlayer } from '../core/player-store.ts';
import type { CaptionListItem, PlayerMeta } from '../core/types.ts';
import { chooseEmbed, chooseSource, type SourceChoice } from '../scrape/switch-source.ts';
import { instanceProviders } from '../scrape/session.ts';
import { seasonEpisodesQuery } from './queries.ts';
import { SPEEDS } from './hooks.ts';
import { Icon } from './icons.tsx';

type Open = (path: string) => void;

const ROW =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-start text-sm text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-40';

function Card({
  title,
  back,
  onBack,
  children,
  testId,
}: {
  title: string;
  back?: string;
  onBack?: () => void;
  children: ReactNode;
  testId: string;
}) {
  return (
    <div
      className="flex max-h-[70vh] w-[343px] max-w-[calc(100vw-2rem)] flex-col overflow-hidden rounded-xl bg-neutral-900/95 text-white shadow-2xl backdrop-blur"
      data-testid={testId}
      role="dialog"
      aria-label={title}
    >
      <div className="flex items-center gap-2 border-b border-white/10 px-3 py-2">
        {onBack && (
          <button
            type="button"
            onClick={onBack}
            className="rounded-full p-1 hover:bg-white/10"
            aria-label={back}
          >
            <Icon name="arrowLeft" className="h-5 w-5" />
          </button>
        )}
        <h2 className="text-sm font-bold">{title}</h2>
      </div>
      <div className="overflow-y-auto p-2">{children}</div>
    </div>
  );
}

export function useLanguageName() {
  const { t, i18n } = useTranslation();
  return (code: string) => {
    if (code === 'custom') return t('player.captions.custom');
    if (code === 'und') return t('player.captions.unknownLanguage');
    try {
      return new Intl.DisplayNames([i18n.language], { type: 'language' }).of(code) ?? code;
    } catch {
      return code;
    }
  };
}

const qualityLabel = (q: StreamQuality, t: (k: string) => string) =>
  q === 'unknown' ? t('player.quality.unknown') : q === '4k' ? '4K' : `${q}p`;

function MenuLink({
  open,
  to,
  label,
  value,
  testId,
}: {
  open: Open;
  to: string;
  label: string;
  value?: string | null | undefined;
  testId: string;
}) {
  return (
    <button type="button" className={ROW} onClick={() => open(to)} data-testid={testId}>
      <span className="flex-1">{label}</span>
      {value && <span className="text-white/60">{value}</span>}
      <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
    </button>
  );
}

function SettingsMain({ open, onClose }: { open: Open; onClose(): void }) {
  const { t } = useTranslation();
  const languageName = useLanguageName();
  const quality = usePlayer((s) => s.currentQuality);
  const automatic = usePlayerPrefsStore((s) => s.automaticQuality);
  const sourceId = usePlayer((s) => s.sourceId);
  const caption = usePlayer((s) => s.caption);
  const rate = usePlayer((s) => s.playback.playbackRate);
  const [sourceName, setSourceName] = useState<string | null>(null);
  useEffect(() => {
    void instanceProviders().then((p) => setSourceName(p.find((x) => x.id === sourceId)?.name ?? sourceId));
  }, [sourceId]);
  return (
    <Card
      title={t('player.settings.title')}
      testId="settings-menu"
      back={t('player.menu.close')}
      onBack={onClose}
    >
      <p className="px-3 pt-1 text-xs font-semibold uppercase tracking-wide text-white/50">
        {t('player.settings.video')}
      </p>
      <MenuLink
        open={open}
        to="/settings/quality"
        label={t('player.settings.quality')}
        value={
          quality ? `${automatic ? `${t('player.quality.auto')} · ` : ''}${qualityLabel(quality, t)}` : null
        }
        testId="menu-quality"
      />
      <MenuLink
        open={open}
        to="/settings/source"
        label={t('player.settings.source')}
        value={sourceName}
        testId="menu-source"
      />
      <p className="px-3 pt-3 text-xs font-semibold uppercase tracking-wide text-white/50">
        {t('player.settings.experience')}
      </p>
      <label className={ROW}>
        <span className="flex-1">{t('player.settings.enableSubtitles')}</span>
        <input
          type="checkbox"
          checked={caption !== null}
          onChange={() => void toggleCaptions()}
          className="h-4 w-4 accent-accent"
          data-testid="toggle-subtitles"
        />
      </label>
      <MenuLink
        open={open}
        to="/settings/captions"
        label={t('player.settings.subtitles')}
        value={caption ? languageName(caption.language) : t('player.captions.off')}
        testId="menu-captions"
      />
      <MenuLink
        open={open}
        to="/settings/playback"
        label={t('player.settings.playback')}
        value={t('player.speed.value', { rate })}
        testId="menu-playback"
      />
      <MenuLink open={open} to="/shortcuts" label={t('player.shortcuts.title')} testId="menu-shortcuts" />
    </Card>
  );
}

function QualityMenu({ back, close }: { back(): void; close(): void }) {
  const { t } = useTranslation();
  const qualities = usePlayer((s) => s.qualities);
  const current = usePlayer((s) => s.currentQuality);
  const automatic = usePlayerPrefsStore((s) => s.automaticQuality);
  const setPrefs = usePlayerPrefsStore((s) => s.setPlayerPrefs);
  const listed = sortQualities([
    '1080',
    '720',
    '480',
    '360',
    ...(qualities.includes('4k') ? (['4k'] as const) : []),
    ...(qualities.includes('unknown') ? (['unknown'] as const) : []),
  ]);
  return (
    <Card
      title={t('player.settings.quality')}
      testId="quality-menu"
      back={t('player.menu.back')}
      onBack={back}
    >
      {listed.map((q) => (
        <button
          key={q}
          type="button"
          className={ROW}
          disabled={!qualities.includes(q)}
          data-testid={`quality-${q}`}
          aria-current={!automatic && current === q ? 'true' : undefined}
          onClick={() => {
            setPrefs({ automaticQuality: false, lastChosenQuality: q });
            requests.setQuality(q);
            close();
          }}
        >
          <span className="flex-1">{qualityLabel(q, t)}</span>
          {current === q && <Icon name="check" className="h-4 w-4" />}
        </button>
      ))}
      <label className={`${ROW} mt-2 border-t border-white/10`}>
        <span className="flex-1">{t('player.quality.automatic')}</span>
        <input
          type="checkbox"
          checked={automatic}
          data-testid="quality-automatic"
          className="h-4 w-4 accent-accent"
          onChange={(e) => {
            setPrefs({ automaticQuality: e.target.checked });
            requests.setQuality(
              e.target.checked
                ? null
                : ((usePlayerPrefsStore.getState().lastChosenQuality as StreamQuality | null) ?? current),
            );
          }}
        />
      </label>
      <p className="px-3 py-2 text-xs text-white/60">{t('player.quality.hint')}</p>
    </Card>
  );
}

function CaptionRow({ item, name }: { item: CaptionListItem; name: string }) {
  const { t } = useTranslation();
  const selected = usePlayer((s) => s.caption?.id === item.id);
  const [state, setState] = useState<'idle' | 'loading' | string>('idle');
  return (
    <li>
      <button
        type="button"
        className={ROW}
        data-testid="caption-option"
        data-language={item.language}
        aria-current={selected ? 'true' : undefined}
        onClick={() => {
          setState('loading');
          selectCaption(item).then(
            () => setState('idle'),
            (error: Error) => setState(error.message || 'failed to get caption data'),
          );
        }}
      >
        <span className="flex-1">{name}</span>
        {state === 'loading' && (
          <span
            className="h-4 w-4 animate-spin rounded-full border-2 border-white/30 border-t-white"
            aria-label={t('global.loading')}
          />
        )}
        {selected && <Icon name="check" className="h-4 w-4" />}
      </button>
      {state !== 'idle' && state !== 'loading' && (
        <p className="px-3 pb-2 text-xs text-red-400" role="alert">
          {t(`player.captions.errors.${errorKey(state)}`)}
        </p>
      )}
    </li>
  );
}

const errorKey = (message: string) =>
  message === 'failed to get caption data from extension'
    ? 'extension'
    : message === 'Given text is empty'
      ? 'empty'
      : message === 'Invalid subtitle format'
        ? 'invalid'
        : 'fetch';

function CaptionsMenu({ open, back }: { open: Open; back(): void }) {
  const { t } = useTranslation();
  const languageName = useLanguageName();
  const list = usePlayer((s) => s.captionList);
  const caption = usePlayer((s) => s.caption);
  const [search, setSearch] = useState('');
  const [uploadError, setUploadError] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const filtered = list.filter(
    (c) => !search || languageName(c.language).toLowerCase().includes(search.toLowerCase()),
  );
  const own = sortCaptions(
    filtered.filter((c) => !c.opensubtitles),
    languageName,
  );
  const openSubtitles = sortCaptions(
    filtered.filter((c) => c.opensubtitles),
    languageName,
  );
  const onFile = (f: File | undefined) => {
    if (!f) return;
    setUploadError(null);
    uploadCaption(f).catch((e: Error) => setUploadError(e.message));
  };
  return (
    <Card
      title={t('player.settings.subtitles')}
      testId="captions-menu"
      back={t('player.menu.back')}
      onBack={back}
    >
      <div
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          onFile(e.dataTransfer.files[0]);
        }}
      >
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('player.captions.search')}
          aria-label={t('player.captions.search')}
          className="mb-2 w-full rounded-lg bg-white/10 px-3 py-2 text-sm text-white placeholder:text-white/50"
        />
        <button
          type="button"
          className={ROW}
          onClick={() => disableCaptions()}
          aria-current={caption === null ? 'true' : undefined}
          data-testid="caption-off"
        >
          <span className="flex-1">{t('player.captions.off')}</span>
          {caption === null && <Icon name="check" className="h-4 w-4" />}
        </button>
        <button
          type="button"
          className={ROW}
          onClick={() => file.current?.click()}
          data-testid="caption-upload"
        >
          <Icon name="upload" className="h-4 w-4" />
          <span className="flex-1">{t('player.captions.upload')}</span>
        </button>
        <input
          ref={file}
          type="file"
          className="hidden"
          accept={uploadExtensions.map((e) => `.${e}`).join(',')}
          onChange={(e) => onFile(e.target.files?.[0])}
          data-testid="caption-file"
          aria-label={t('player.captions.upload')}
        />
        {uploadError && (
          <p className="px-3 pb-2 text-xs text-red-400" role="alert">
            {t(`player.captions.errors.${errorKey(uploadError)}`)}
          </p>
        )}
        <p className="px-3 pt-2 text-xs font-semibold uppercase tracking-wide text-white/50">
          {t('player.captions.sourceCaptions')}
        </p>
        {own.length === 0 ? (
          <p className="px-3 py-2 text-sm text-white/60">{t('player.captions.none')}</p>
        ) : (
          <ul data-testid="source-captions">
            {own.map((c) => (
              <CaptionRow key={c.id} item={c} name={languageName(c.language)} />
            ))}
          </ul>
        )}
        {openSubtitles.length > 0 && (
          <>
            <p className="px-3 pt-2 text-xs font-semibold uppercase tracking-wide text-white/50">
              {t('player.captions.openSubtitles')}
            </p>
            <ul data-testid="opensubtitles-captions">
              {openSubtitles.map((c) => (
                <CaptionRow key={c.id} item={c} name={languageName(c.language)} />
              ))}
            </ul>
          </>
        )}
        <button
          type="button"
          className={`${ROW} mt-2 border-t border-white/10`}
          onClick={() => open('/settings/captions/settings')}
          data-testid="caption-customize"
        >
          <span className="flex-1">{t('player.captions.customize')}</span>
          <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
        </button>
      </div>
    </Card>
  );
}

function Slider({
  label,
  value,
  min,
  max,
  step,
  unit,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  unit: string;
  onChange(v: number): void;
  testId: string;
}) {
  return (
    <div className="block px-3 py-2 text-sm">
      <span className="flex justify-between">
        <span>{label}</span>
        <span className="tabular-nums text-white/70" data-testid={`${testId}-value`}>
          {value}
          {unit}
        </span>
      </span>
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="mt-1 w-full accent-accent"
        data-testid={testId}
        aria-label={label}
      />
    </div>
  );
}

function CaptionSettings({ back }: { back(): void }) {
  const { t } = useTranslation();
  const s = useSubtitlesStore();
  const delay = clampDelaySetting(s.delay);
  return (
    <Card
      title={t('player.captions.settings')}
      testId="caption-settings"
      back={t('player.menu.back')}
      onBack={back}
    >
      <div className="px-3 py-2 text-sm">
        <span className="flex justify-between">
          <span>{t('player.captions.delay')}</span>
          <span className="tabular-nums text-white/70" data-testid="caption-delay-value">
            {t('player.captions.seconds', { value: delay.toFixed(1) })}
          </span>
        </span>
        <div className="mt-1 flex items-center gap-2">
          <button
            type="button"
            className="rounded bg-white/10 px-2"
            onClick={() => s.setDelay(clampDelaySetting(delay - 0.1))}
            aria-label={t('player.captions.delayEarlier')}
            data-testid="caption-delay-down"
          >
            ◀
          </button>
          <input
            type="range"
            min={CAPTION_DELAY_RANGE.min}
            max={CAPTION_DELAY_RANGE.max}
            step={CAPTION_DELAY_RANGE.step}
            value={delay}
            onChange={(e) => s.setDelay(clampDelaySetting(Number(e.target.value)))}
            className="flex-1 accent-accent"
            aria-label={t('player.captions.delay')}
            data-testid="caption-delay"
          />
          <button
            type="button"
            className="rounded bg-white/10 px-2"
            onClick={() => s.setDelay(clampDelaySetting(delay + 0.1))}
            aria-label={t('player.captions.delayLater')}
            data-testid="caption-delay-up"
          >
            ▶
          </button>
        </div>
      </div>
      <label className={ROW}>
        <span className="flex-1">{t('player.captions.fixCapitalisation')}</span>
        <input
          type="checkbox"
          checked={s.overrideCasing}
          onChange={(e) => s.setSubtitles({ overrideCasing: e.target.checked })}
          className="h-4 w-4 accent-accent"
          data-testid="caption-fix-casing"
        />
      </label>
      <label className={ROW}>
        <span className="flex-1">{t('player.captions.bold')}</span>
        <input
          type="checkbox"
          checked={s.styling.bold}
          onChange={(e) => s.setStyling({ bold: e.target.checked })}
          className="h-4 w-4 accent-accent"
          data-testid="caption-bold"
        />
      </label>
      <Slider
        label={t('player.captions.backgroundOpacity')}
        value={Math.round(s.styling.backgroundOpacity * 100)}
        min={0}
        max={100}
        step={1}
        unit="%"
        onChange={(v) => s.setStyling({ backgroundOpacity: v / 100 })}
        testId="caption-opacity"
      />
      <Slider
        label={t('player.captions.backgroundBlur')}
        value={Math.round(s.styling.backgroundBlur * 100)}
        min={0}
        max={100}
        step={1}
        unit="%"
        onChange={(v) => s.setStyling({ backgroundBlur: v / 100 })}
        testId="caption-blur"
      />
      <Slider
        label={t('player.captions.textSize')}
        value={Math.round(s.styling.size * 100)}
        min={1}
        max={200}
        step={1}
        unit="%"
        onChange={(v) => s.setStyling({ size: v / 100 })}
        testId="caption-size"
      />
      <div className="px-3 py-2 text-sm">
        <p>{t('player.captions.color')}</p>
        <div className="mt-2 flex gap-3">
          {SUBTITLE_COLORS.map((color) => (
            <button
              key={color}
              type="button"
              className={`h-8 w-8 rounded-full border-2 ${s.styling.color === color ? 'border-accent' : 'border-transparent'}`}
              style={{ backgroundColor: color }}
              aria-label={t('player.captions.colorName', { color })}
              aria-pressed={s.styling.color === color}
              data-testid={`caption-color-${color.slice(1)}`}
              onClick={() => s.setStyling({ color })}
            />
          ))}
        </div>
      </div>
    </Card>
  );
}

function SourceMenu({ back, close, meta }: { back(): void; close(): void; meta: PlayerMeta }) {
  const { t } = useTranslation();
  const current = usePlayer((s) => s.sourceId);
  const [sources, setSources] = useState<{ id: string; name: string }[]>([]);
  const [names, setNames] = useState<Record<string, string>>({});
  const [state, setState] = useState<{ id: string; result: SourceChoice | 'loading' } | null>(null);
  useEffect(() => {
    void instanceProviders().then((all) => {
      setSources(
        all.filter((p) => p.type === 'source' && (p.mediaTypes ?? ['movie', 'show']).includes(meta.type)),
      );
      setNames(Object.fromEntries(all.map((p) => [p.id, p.name])));
    });
  }, [meta.type]);
  const run = (id: string, work: () => Promise<SourceChoice>) => {
    setState({ id, result: 'loading' });
    void work().then((result) => {
      setState({ id, result });
      if (result.kind === 'playing') close();
    });
  };
  const result = state?.result;
  return (
    <Card title={t('player.settings.source')} testId="source-menu" back={t('player.menu.back')} onBack={back}>
      <ul>
        {sources.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className={ROW}
              onClick={() => run(s.id, () => chooseSource(s.id, meta))}
              data-testid="source-option"
              data-id={s.id}
            >
              <span className="flex-1">{s.name}</span>
              {state?.id === s.id && result === 'loading' && (
                <span className="h-4 w-4 animate-spin rounded-full border-2 border-white/30 border-t-white" />
              )}
              {current === s.id && <Icon name="check" className="h-4 w-4" />}
            </button>
            {state?.id === s.id &&
              result !== 'loading' &&
              result &&
              result.kind !== 'playing' &&
              result.kind !== 'embeds' && (
                <p className="px-3 pb-2 text-xs text-red-400" role="alert">
                  {result.kind === 'noStream'
                    ? t('player.scraping.noStream')
                    : result.kind === 'noEmbeds'
                      ? t('player.scraping.noEmbeds')
                      : t('player.scraping.failed')}
                </p>
              )}
            {state?.id === s.id && result && result !== 'loading' && result.kind === 'embeds' && (
              <ul className="ms-4">
                {result.embeds.map((e) => (
                  <li key={`${e.embedId}-${e.url}`}>
                    <button
                      type="button"
                      className={ROW}
                      data-testid="embed-option"
                      data-id={e.embedId}
                      onClick={() => run(s.id, () => chooseEmbed(s.id, e.embedId, e.url))}
                    >
                      {names[e.embedId] ?? e.embedId}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function PlaybackMenu({ back }: { back(): void }) {
  const { t } = useTranslation();
  const rate = usePlayer((s) => s.playback.playbackRate);
  return (
    <Card
      title={t('player.settings.playback')}
      testId="playback-menu"
      back={t('player.menu.back')}
      onBack={back}
    >
      <p className="px-3 py-1 text-sm text-white/70">{t('player.speed.label')}</p>
      <div className="flex flex-wrap gap-2 px-3 py-2">
        {SPEEDS.map((s) => (
          <button
            key={s}
            type="button"
            onClick={() => requests.setPlaybackRate(s)}
            aria-pressed={rate === s}
            data-testid={`speed-${s}`}
            className={`rounded-lg px-3 py-1.5 text-sm ${rate === s ? 'bg-accent text-white' : 'bg-white/10 hover:bg-white/20'}`}
          >
            {t('player.speed.value', { rate: s })}
          </button>
        ))}
      </div>
    </Card>
  );
}

function EpisodesMenu({
  meta,
  seasonId,
  open,
  back,
  onClose,
}: {
  meta: PlayerMeta;
  seasonId: string | null;
  open: Open;
  back(): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const season = meta.seasons?.find((s) => s.id === (seasonId ?? meta.season?.id)) ?? meta.season;
  const q = useQuery({ ...seasonEpisodesQuery(meta.tmdbId, season?.number ?? 1), enabled: !!season });
  const progress = useLibraryStore((s) => s.progress[libraryKey('show', meta.tmdbId)]?.episodes);
  if (seasonId === 'seasons') {
    return (
      <Card
        title={t('player.episodes.seasons')}
        testId="seasons-menu"
        back={t('player.menu.close')}
        onBack={onClose}
      >
        <ul>
          {(meta.seasons ?? []).map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className={ROW}
                onClick={() => open(`/episodes/${s.id}`)}
                data-testid="season-option"
              >
                <span className="flex-1">{s.title}</span>
                <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
              </button>
            </li>
          ))}
        </ul>
      </Card>
    );
  }
  return (
    <Card
      title={season?.title ?? t('player.episodes.title')}
      testId="episodes-menu"
      back={t('player.episodes.seasons')}
      onBack={seasonId ? back : () => open('/episodes/seasons')}
    >
      {q.isPending ? (
        <p className="px-3 py-2 text-sm text-white/60">{t('global.loading')}</p>
      ) : q.isError ? (
        <p className="px-3 py-2 text-sm text-red-400">{t('media.seasons.loadFailed')}</p>
      ) : q.data.episodes.length === 0 ? (
        <p className="px-3 py-2 text-sm text-white/60">{t('media.seasons.empty')}</p>
      ) : (
        <ul>
          {q.data.episodes.map((e) => {
            const aired = e.airDate ? isReleased({ releaseDate: e.airDate }, clock.now()) : false;
            const p = progress?.[e.id]?.progress;
            const percent = p && p.duration > 0 ? Math.round((p.watched / p.duration) * 100) : 0;
            const current = e.id === meta.episode?.id;
            return (
              <li key={e.id}>
                <button
                  type="button"
                  disabled={!aired}
                  className={`${ROW} ${current ? 'bg-accent/30' : ''}`}
                  aria-current={current ? 'true' : undefined}
                  data-testid="episode-option"
                  data-unaired={aired ? undefined : 'true'}
                  onClick={() => navigate(mediaPath(meta.mediaKey, q.data.id, e.id))}
                >
                  <span className="w-10 shrink-0 rounded bg-white/10 px-1 text-center font-mono text-xs">
                    {t('media.seasons.episodeNumber', { number: e.number })}
                  </span>
                  <span className="flex-1 truncate">{e.title}</span>
                  {percent > 0 && (
                    <span
                      className="h-4 w-4 rounded-full"
                      style={{
                        background: `conic-gradient(currentColor ${percent}%, rgba(255,255,255,0.2) 0)`,
                      }}
                      aria-label={t('library.watched', { percent })}
                    />
                  )}
                  {!aired && <span className="text-xs text-white/60">{t('media.seasons.unaired')}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

export const SHORTCUTS: [string, string][] = [
  ['Space / K', 'playPause'],
  ['← / →', 'seek5'],
  ['J / L', 'seek10'],
  [', / .', 'frame'],
  ['↑ / ↓', 'volume'],
  ['M', 'mute'],
  ['< / >', 'speed'],
  ['F', 'fullscreen'],
  ['C', 'captions'],
  ['Esc', 'close'],
  ['R', 'roll'],
  ['?', 'help'],
];

function ShortcutsList({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Card
      title={t('player.shortcuts.title')}
      testId="shortcuts-list"
      back={t('player.menu.close')}
      onBack={onClose}
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 px-3 py-2 text-sm">
        {SHORTCUTS.map(([keys, action]) => (
          <div key={action} className="contents">
            <dt>
              <kbd className="rounded bg-white/15 px-1.5 py-0.5 font-mono text-xs">{keys}</kbd>
            </dt>
            <dd className="text-white/80">{t(`player.shortcuts.${action}`)}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** The open menu, from `?r=`. */
export function OverlayHost({
  route,
  open,
  close,
  back,
  meta,
}: {
  route: string | null;
  open: Open;
  close(): void;
  back(): void;
  meta: PlayerMeta;
}) {
  if (!route) return null;
  let content: ReactNode = null;
  if (route === '/settings') content = <SettingsMain open={open} onClose={close} />;
  else if (route === '/settings/quality') content = <QualityMenu back={back} close={close} />;
  else if (route === '/settings/captions' || route === '/captions')
    content = <CaptionsMenu open={open} back={route === '/captions' ? close : back} />;
  else if (route === '/settings/captions/settings') content = <CaptionSettings back={back} />;
  else if (route === '/settings/source') content = <SourceMenu back={back} close={close} meta={meta} />;
  else if (route === '/settings/playback') content = <PlaybackMenu back={back} />;
  else if (route === '/shortcuts') content = <ShortcutsList onClose={close} />;
  else if (route.startsWith('/episodes') && meta.type === 'show') {
    const rest = route.slice('/episodes'.length).replace(/^\//, '');
    content = <EpisodesMenu meta={meta} seasonId={rest || null} open={open} back={back} onClose={close} />;
  }
  if (!content) return null;
  return (
    <div
      className="absolute inset-0 z-30 flex items-end justify-end p-4 pb-24"
      onPointerDown={(e) => e.target === e.currentTarget && close()}
      data-testid="overlay-host"
    >
      {content}
    </div>
  );
}
