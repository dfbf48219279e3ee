import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEGMENT_TYPES, segmentMarkProblem } from '@marquee/contract/values';
import { ApiError, codeKey } from '../../../../lib/api/errors.ts';
import { segmentsApi } from '../../../../lib/api/segments-api.ts';
import { usePlayerPrefsStore, useAccountStore, type SegmentSkip } from '../../../../stores/index.ts';
import { playerStore, usePlayer } from '../../core/player-store.ts';
import type { SegmentType } from '../../core/segments.ts';
import { keepSegments } from '../../session/use-segments.ts';
import { formatTime } from '../../../../lib/timestamp.ts';
import {
  MenuCard,
  MenuGroup,
  MenuLink,
  MenuList,
  MenuRadio,
  ROW,
  RowError,
  type OpenMenu,
} from './menu-parts.tsx';

const CHOICES: readonly SegmentSkip[] = ['ask', 'skip', 'off'];

/** The name of a kind of segment, and of what each choice does to it. */
function useSegmentWords() {
  const { t } = useTranslation(['player']);
  const name = (type: SegmentType) =>
    type === 'intro'
      ? t('player.segments.intro')
      : type === 'recap'
        ? t('player.segments.recap')
        : type === 'credits'
          ? t('player.segments.credits')
          : t('player.segments.preview');
  const choice = (type: SegmentType, c: SegmentSkip) =>
    c === 'off'
      ? t('player.segments.off')
      : type === 'credits'
        ? c === 'ask'
          ? t('player.segments.creditsAsk')
          : t('player.segments.creditsSkip')
        : c === 'ask'
          ? t('player.segments.ask')
          : t('player.segments.skip');
  return { name, choice };
}

/**
 * `/settings/segments` (decision 111): for each kind of segment, offer to skip it, skip it, or never;
 * and marking where one is, for everyone on this server.
 */
export function SegmentsMenu({ open, back }: { open: OpenMenu; back(): void }) {
  const { t } = useTranslation(['player']);
  const { name, choice } = useSegmentWords();
  const skips = usePlayerPrefsStore((s) => s.segmentSkips);
  const setPrefs = usePlayerPrefsStore((s) => s.setPlayerPrefs);
  const detecting = usePlayer((s) => s.segments?.detection === 'pending');
  return (
    <MenuCard
      title={t('player.segments.title')}
      testId="segments-menu"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
    >
      {detecting && <p className="px-3 pb-2 text-xs text-white/70">{t('player.segments.detecting')}</p>}
      <MenuList>
        {SEGMENT_TYPES.map((type) => (
          <MenuGroup key={type} label={name(type)}>
            {CHOICES.map((c) => (
              <MenuRadio
                key={c}
                checked={skips[type] === c}
                onClick={() => setPrefs({ segmentSkips: { ...skips, [type]: c } })}
                data-testid={`segments-${type}-${c}`}
              >
                <span className="flex-1">{choice(type, c)}</span>
              </MenuRadio>
            ))}
          </MenuGroup>
        ))}
        <MenuGroup label={t('player.segments.mark')}>
          <MenuLink
            open={open}
            to="/settings/segments/mark"
            label={t('player.segments.mark')}
            testId="segments-mark"
          />
        </MenuGroup>
      </MenuList>
    </MenuCard>
  );
}

/**
 * `/settings/segments/mark`: the viewer marks where a part of this file is (its start and end where the
 * video is when they press), shared with everyone on this server; their own mark can be taken back.
 */
export function MarkSegmentMenu({ back }: { back(): void }) {
  const { t } = useTranslation(['player', 'errors']);
  const { name } = useSegmentWords();
  const signedIn = useAccountStore((s) => s.account !== null);
  const segments = usePlayer((s) => s.segments);
  const [type, setType] = useState<SegmentType>('intro');
  const [start, setStart] = useState<number | null>(null);
  const [end, setEnd] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const errorId = useId();
  const mine = segments?.mine.find((m) => m.type === type) ?? null;
  const now = () => playerStore.getState().playback.time;
  const send = async (remove: boolean) => {
    if (!segments) return;
    const params = { access: segments.access, fileId: segments.fileId, type };
    if (!remove) {
      const problem =
        start === null || end === null ? 'missing' : segmentMarkProblem(type, start, end, segments.duration);
      if (problem) {
        setMessage({ ok: false, text: t(codeKey('segment_invalid')) });
        return;
      }
    }
    try {
      const answer = remove
        ? await segmentsApi.unmarkSegment({ params })
        : await segmentsApi.markSegment({ params, body: { start: start!, end: end! } });
      keepSegments(segments, answer);
      setMessage({ ok: true, text: t('player.segments.saved') });
    } catch (e) {
      setMessage({
        ok: false,
        text: t(codeKey(e instanceof ApiError ? e.code : null, e instanceof ApiError ? e.status : 400)),
      });
    }
  };
  return (
    <MenuCard
      title={t('player.segments.mark')}
      testId="mark-segment-menu"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
      panel
    >
      {!signedIn || !segments ? (
        <p className="p-2 text-sm text-white/80">{t('player.segments.signInToMark')}</p>
      ) : (
        <div className="flex flex-col gap-2 p-1">
          <p className="text-xs text-white/70">{t('player.segments.markHint')}</p>
          <fieldset className="flex flex-wrap gap-1">
            <legend className="mb-1 text-xs text-white/70">{t('player.segments.which')}</legend>
            {SEGMENT_TYPES.map((s) => (
              <label key={s} className={`${ROW} w-auto! flex-1 cursor-pointer`}>
                <input
                  type="radio"
                  name="segment-type"
                  className="h-4 w-4 accent-[var(--color-fg-accent)]"
                  checked={type === s}
                  onChange={() => setType(s)}
                />
                {name(s)}
              </label>
            ))}
          </fieldset>
          <div className="grid grid-cols-2 gap-2">
            <button
              type="button"
              className={`${ROW} justify-center border border-white/20`}
              onClick={() => setStart(now())}
              data-testid="mark-start"
            >
              {t('player.segments.startHere')}
            </button>
            <button
              type="button"
              className={`${ROW} justify-center border border-white/20`}
              onClick={() => setEnd(now())}
              data-testid="mark-end"
            >
              {t('player.segments.endHere')}
            </button>
          </div>
          <p className="text-sm tabular-nums" data-testid="mark-range">
            {start !== null && t('player.segments.startsAt', { time: formatTime(start) })}
            {start !== null && end !== null && ' · '}
            {end !== null && t('player.segments.endsAt', { time: formatTime(end) })}
          </p>
          {message &&
            (message.ok ? (
              <p role="status" className="text-sm text-green-300">
                {message.text}
              </p>
            ) : (
              <RowError id={errorId} text={message.text} />
            ))}
          <button
            type="button"
            className="min-h-11 rounded-lg bg-white px-4 text-sm font-semibold text-black hover:bg-white/90 disabled:opacity-50"
            disabled={start === null || end === null}
            onClick={() => void send(false)}
            data-testid="mark-save"
          >
            {t('player.segments.save')}
          </button>
          {mine && (
            <button
              type="button"
              className={`${ROW} justify-center`}
              onClick={() => void send(true)}
              data-testid="mark-remove"
            >
              {t('player.segments.remove')}
            </button>
          )}
        </div>
      )}
    </MenuCard>
  );
}
