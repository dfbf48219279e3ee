import { useState, type ReactNode } from 'react';
import type { PlayerMeta } from '../../core/types.ts';
import { AudioMenu } from './audio-menu.tsx';
import { CaptionSettingsMenu } from './caption-settings-menu.tsx';
import { CaptionsMenu } from './captions-menu.tsx';
import { EpisodesMenu } from './episodes-menu.tsx';
import { ReturnedFrom, type OpenMenu } from './menu-parts.tsx';
import { PartyMenu } from './party-menu.tsx';
import { PlaybackMenu } from './playback-menu.tsx';
import { MarkSegmentMenu, SegmentsMenu } from './segments-menu.tsx';
import { QualityMenu } from './quality-menu.tsx';
import { SettingsMenu } from './settings-menu.tsx';
import { ShortcutsMenu } from './shortcuts-menu.tsx';
import { SourceMenu } from './source-menu.tsx';

/** The menu of a `?r=` route, or null. */
function menuFor(
  route: string,
  { open, close, back, meta }: { open: OpenMenu; close(): void; back(): void; meta: PlayerMeta },
): ReactNode {
  switch (route) {
    case '/settings':
      return <SettingsMenu open={open} onClose={close} isShow={meta.type === 'show'} />;
    case '/settings/quality':
      return <QualityMenu back={back} close={close} />;
    case '/settings/audio':
      return <AudioMenu back={back} close={close} />;
    case '/settings/captions':
      return <CaptionsMenu open={open} close={close} parent={back} />;
    case '/captions':
      return <CaptionsMenu open={open} close={close} />;
    case '/settings/captions/settings':
      return <CaptionSettingsMenu back={back} />;
    case '/settings/source':
      return <SourceMenu back={back} close={close} meta={meta} />;
    case '/settings/playback':
      return <PlaybackMenu back={back} />;
    case '/settings/segments':
      return <SegmentsMenu open={open} back={back} />;
    case '/settings/segments/mark':
      return <MarkSegmentMenu back={back} />;
    case '/settings/party':
      return <PartyMenu back={back} meta={meta} />;
    case '/shortcuts':
      return <ShortcutsMenu onClose={close} />;
  }
  if (route.startsWith('/episodes') && meta.type === 'show') {
    const rest = route.slice('/episodes'.length).replace(/^\//, '');
    return <EpisodesMenu meta={meta} seasonId={rest || null} open={open} back={back} onClose={close} />;
  }
  return null;
}

/**
 * The open menu, from `?r=`. Each route mounts its own menu (focus lands afresh), told the route it
 * came back from so the row that opened that one takes focus again.
 */
export function OverlayHost({
  route,
  open,
  close,
  back,
  meta,
}: {
  route: string | null;
  open: OpenMenu;
  close(): void;
  back(): void;
  meta: PlayerMeta;
}) {
  const [shown, setShown] = useState(route);
  const [from, setFrom] = useState<string | null>(null);
  if (route !== shown) {
    setShown(route);
    setFrom(shown);
  }
  const content = route ? menuFor(route, { open, close, back, meta }) : null;
  if (!content) return null;
  return (
    <div
      className="absolute inset-0 z-30 flex items-end justify-end p-4 pb-24"
      onPointerDown={(e) => e.target === e.currentTarget && close()}
      data-testid="overlay-host"
    >
      <ReturnedFrom.Provider key={route} value={from}>
        {content}
      </ReturnedFrom.Provider>
    </div>
  );
}
