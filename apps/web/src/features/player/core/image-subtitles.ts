/**
 * The key of a picture subtitle's source for an audio track: the track's id, or `default` when the
 * source lists no audio tracks (the server's `imageSubtitles[].playlists`, decision 085).
 */
export const imageSubtitleKey = (audioTrackId: string | null): string => audioTrackId ?? 'default';
