import { useEffect, useId, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { clock } from '../../../lib/clock.ts';
import { requests, togglePlay, usePlayer, seekBy } from '../core/player-store.ts';
import { formatTime } from '../../../lib/timestamp.ts';
import { usePlayerUi, playerUi } from '../core/ui-store.ts';
import { Icon, type IconName } from './icons.tsx';
import { takenByTvKeys } from './tv-keys.ts';
import { toggleMute } from './volume.ts';

export function ControlButton({
  icon,
  label,
  onClick,
  testId,
  pressed,
  focusHome,
  className = '',
}: {
  icon: IconName;
  label: string;
  onClick(): void;
  testId?: string;
  pressed?: boolean;
  /** Where a TV remote's Up/Down land from the video (tv-focus.ts). */
  focusHome?: boolean;
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      data-testid={testId}
      data-focus-home={focusHome ? '' : undefined}
      className={`inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-white/90 transition-colors hover:bg-white/15 hover:text-white focus-visible:outline-2 focus-visible:outline-white motion-reduce:transition-none ${className}`}
    >
      <Icon name={icon} />
    </button>
  );
}

export function PlayPauseButton() {
  const { t } = useTranslation(['player']);
  const paused = usePlayer((s) => s.playback.isPaused);
  return (
    <ControlButton
      icon={paused ? 'play' : 'pause'}
      label={paused ? t('player.controls.play') : t('player.controls.pause')}
      onClick={togglePlay}
      testId="play-pause"
      focusHome
    />
  );
}

export function SkipButtons() {
  const { t } = useTranslation(['player']);
  return (
    <>
      <ControlButton
        icon="back10"
        label={t('player.controls.back10')}
        onClick={() => seekBy(-10)}
        testId="skip-back"
      />
      <ControlButton
        icon="forward10"
        label={t('player.controls.forward10')}
        onClick={() => seekBy(10)}
        testId="skip-forward"
      />
    </>
  );
}

/** Mute toggle and slider (the slider is hidden where the device cannot change the volume). */
export function VolumeControl() {
  const { t } = useTranslation(['player']);
  const volume = usePlayer((s) => s.playback.volume);
  const muted = usePlayer((s) => s.playback.muted);
  const canChange = usePlayer((s) => s.capabilities.canChangeVolume);
  const popoutAt = usePlayerUi((s) => s.volumePopoutAt);
  const [popout, setPopout] = useState(false);
  useEffect(() => {
    if (!popoutAt) return;
    setPopout(true);
    const timer = setTimeout(() => setPopout(false), 3_000);
    return () => clearTimeout(timer);
  }, [popoutAt]);
  const shown = muted ? 0 : volume;
  return (
    <div
      className="group flex shrink-0 items-center"
      onWheel={(e) => {
        if (canChange === false) return;
        requests.setVolume(Math.max(0, Math.min(1, shown + (e.deltaY < 0 ? 0.05 : -0.05))));
      }}
    >
      <ControlButton
        icon={shown === 0 ? 'volumeMuted' : 'volume'}
        label={shown === 0 ? t('player.controls.unmute') : t('player.controls.mute')}
        onClick={toggleMute}
        testId="mute"
        pressed={muted}
      />
      {canChange !== false && (
        <input
          type="range"
          min={0}
          max={1}
          step={0.01}
          value={shown}
          onChange={(e) => requests.setVolume(Number(e.target.value))}
          aria-label={t('player.controls.volume')}
          data-testid="volume-slider"
          className="w-0 opacity-0 tv:hidden transition-all duration-200 group-focus-within:w-24 group-focus-within:opacity-100 group-hover:w-24 group-hover:opacity-100 accent-white motion-reduce:transition-none"
        />
      )}
      {popout && (
        <span
          className="ms-2 rounded bg-black/60 px-2 py-0.5 text-xs tabular-nums"
          data-testid="volume-popout"
        >
          {Math.round(shown * 100)}%
        </span>
      )}
    </div>
  );
}

/** One clock-time formatter per language: building an Intl formatter costs milliseconds, and this renders on every time update. */
const clockFormats = new Map<string, Intl.DateTimeFormat>();
function formatClock(language: string, at: Date): string {
  let format = clockFormats.get(language);
  if (!format)
    clockFormats.set(
      language,
      (format = new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' })),
    );
  return format.format(at);
}

/**
 * Elapsed / duration, or the time left and when it ends; a click switches. One line always: `short`
 * (a phone) drops the end time, `elapsedOnly` (the narrowest players) the duration.
 */
export function TimeDisplay({
  elapsedOnly = false,
  short = false,
}: {
  elapsedOnly?: boolean;
  short?: boolean;
}) {
  const { t, i18n } = useTranslation(['player']);
  const time = usePlayer((s) => s.playback.time);
  const duration = usePlayer((s) => s.playback.duration);
  const rate = usePlayer((s) => s.playback.playbackRate);
  const format = usePlayerUi((s) => s.timeFormat);
  const remaining = Math.max(0, duration - time);
  const [now, setNow] = useState(() => clock.now().getTime());
  useEffect(() => {
    if (format !== 'remaining') return;
    const timer = setInterval(() => setNow(clock.now().getTime()), 10_000);
    return () => clearInterval(timer);
  }, [format]);
  const finishAt =
    format === 'remaining'
      ? formatClock(i18n.language, new Date(now + (remaining * 1000) / (rate || 1)))
      : '';
  const compactRemaining = short || elapsedOnly;
  const hintId = useId();
  return (
    <button
      type="button"
      className="min-h-11 min-w-0 overflow-hidden text-ellipsis whitespace-nowrap rounded px-2 py-1 text-sm tabular-nums text-white/90 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
      onClick={() => playerUi.getState().set({ timeFormat: format === 'regular' ? 'remaining' : 'regular' })}
      data-testid="time"
      // The time shown is the button's name (what a voice-control user says to press it); what it does is
      // its description.
      aria-describedby={hintId}
    >
      {format === 'regular' ? (
        // Elapsed first in every language: times read left to right in right-to-left players too.
        <span dir="ltr">
          <span data-testid="time-elapsed">{formatTime(time)}</span>
          {!elapsedOnly && ` / ${formatTime(duration)}`}
        </span>
      ) : compactRemaining ? (
        <span dir="ltr">-{formatTime(remaining)}</span>
      ) : (
        <span>{t('player.controls.remaining', { time: formatTime(remaining), at: finishAt })}</span>
      )}
      <span id={hintId} hidden>
        {t('player.controls.timeFormat')}
      </span>
    </button>
  );
}

/** The intro, recap, credits and preview on the seek bar (decision 111): where they are, at a glance. */
function SegmentMarkers({ duration }: { duration: number }) {
  const segments = usePlayer((s) => s.segments?.segments);
  if (!segments?.length || duration <= 0) return null;
  return (
    <>
      {segments.map((s) => (
        <div
          key={`${s.type}-${s.start}`}
          className="absolute inset-y-0 z-[1] rounded-full bg-amber-300/70"
          style={{
            insetInlineStart: `${(Math.min(s.start, duration) / duration) * 100}%`,
            width: `${((Math.min(s.end, duration) - Math.min(s.start, duration)) / duration) * 100}%`,
          }}
          data-testid="segment-marker"
          data-segment={s.type}
          aria-hidden="true"
        />
      ))}
    </>
  );
}

/**
 * The seek bar: played and buffered ranges, a hover time (and thumbnail), drag to seek; on a TV, a held
 * arrow's target previews the same way (`scrubTo`, tv-keys.ts), and its Left/Right are taken there.
 */
export function ProgressBar() {
  const { t } = useTranslation(['player']);
  const time = usePlayer((s) => s.playback.time);
  const duration = usePlayer((s) => s.playback.duration);
  const buffered = usePlayer((s) => s.playback.buffered);
  const thumbnails = usePlayer((s) => s.thumbnails);
  const scrubTo = usePlayerUi((s) => s.scrubTo);
  const bar = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [drag, setDrag] = useState<number | null>(null);
  const fractionAt = (clientX: number) => {
    const rect = bar.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return 0;
    const x = document.documentElement.dir === 'rtl' ? rect.right - clientX : clientX - rect.left;
    return Math.max(0, Math.min(1, x / rect.width));
  };
  const scrubbed = scrubTo !== null && duration > 0 ? scrubTo / duration : null;
  const shown = drag ?? scrubbed ?? (duration > 0 ? time / duration : 0);
  // Where the preview is: the pointer over the bar, else a held arrow's target.
  const preview = hover ?? scrubbed;
  const previewTime = preview !== null ? preview * duration : null;
  const thumb =
    previewTime !== null && thumbnails.length
      ? thumbnails.reduce((a, b) => (Math.abs(b.at - previewTime) < Math.abs(a.at - previewTime) ? b : a))
      : null;
  const onDown = (e: ReactPointerEvent) => {
    if (duration <= 0) return;
    (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
    setDrag(fractionAt(e.clientX));
  };
  const onMove = (e: ReactPointerEvent) => {
    setHover(fractionAt(e.clientX));
    if (drag !== null) setDrag(fractionAt(e.clientX));
  };
  const onUp = (e: ReactPointerEvent) => {
    if (drag === null) return;
    requests.seek(fractionAt(e.clientX) * duration);
    setDrag(null);
  };
  return (
    <div
      className="group relative flex h-6 cursor-pointer items-center"
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerLeave={() => setHover(null)}
    >
      {previewTime !== null && (
        <div
          className="pointer-events-none absolute bottom-6 -translate-x-1/2 rounded bg-black/80 p-1 text-center text-xs tabular-nums rtl:translate-x-1/2"
          style={{ insetInlineStart: `${(preview ?? 0) * 100}%` }}
          data-testid="seek-preview"
        >
          {thumb && (
            <img src={thumb.data} alt="" className="mb-1 h-24 rounded" data-testid="seek-thumbnail" />
          )}
          {formatTime(previewTime)}
        </div>
      )}
      <div
        ref={bar}
        role="slider"
        tabIndex={0}
        aria-label={t('player.controls.seek')}
        aria-valuemin={0}
        aria-valuemax={Math.floor(duration)}
        aria-valuenow={Math.floor(time)}
        aria-valuetext={`${formatTime(time)} / ${formatTime(duration)}`}
        data-testid="progress-bar"
        data-seek-bar=""
        className="relative h-1 w-full rounded-full bg-white/25 transition-[height] group-hover:h-1.5"
        onKeyDown={(e) => {
          if (takenByTvKeys(e.nativeEvent)) return;
          if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') e.stopPropagation();
          if (e.key === 'ArrowRight') seekBy(5);
          if (e.key === 'ArrowLeft') seekBy(-5);
        }}
      >
        <div
          className="absolute inset-y-0 start-0 rounded-full bg-white/40"
          style={{ width: `${duration > 0 ? Math.min(100, (buffered / duration) * 100) : 0}%` }}
          data-testid="buffered-bar"
        />
        <SegmentMarkers duration={duration} />
        <div
          className="absolute inset-y-0 start-0 rounded-full bg-accent"
          style={{ width: `${shown * 100}%` }}
        />
        <div
          className="absolute top-1/2 h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full bg-white opacity-0 group-hover:opacity-100 group-focus-within:opacity-100 rtl:translate-x-1/2"
          style={{ insetInlineStart: `${shown * 100}%` }}
        />
      </div>
    </div>
  );
}
