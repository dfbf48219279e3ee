#!/usr/bin/env bash
# Makes the media of the built-in `sample` source: H.264/AAC MP4 files in 360p/480p/720p, an HLS ladder
# whose playlists loop the same few segments for twenty minutes, and captions in four languages.
# Test patterns (testsrc2) and a sine tone only: no third-party media. The output is committed, so an
# operator never needs to run this; run it again (from anywhere) after changing it:
#   scripts/make-samples.sh [output-dir]      # default apps/server/assets/samples
# Needs ffmpeg and ffprobe (Debian: apt-get install --no-install-recommends ffmpeg; fonts-dejavu-core for
# the on-screen label, which is left out when the font is missing).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/apps/server/assets/samples}"
CLIP_SECONDS=8        # length of the clip (and of each MP4 file)
SEGMENT_SECONDS=2     # HLS segment length = key-frame interval
LOOP_MINUTES=20       # how long the HLS playlists play
FPS=30
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
# name:width:height:video bitrate (kept low: everything committed stays well under 3 MB)
LEVELS=("360p:640:360:90k" "480p:854:480:140k" "720p:1280:720:220k")

command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "ffmpeg and ffprobe are needed" >&2; exit 1; }

rm -rf "$OUT/mp4" "$OUT/hls" "$OUT/captions"
mkdir -p "$OUT/mp4" "$OUT/hls" "$OUT/captions"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

GOP=$((FPS * SEGMENT_SECONDS))
LOOPS=$(((LOOP_MINUTES * 60 + CLIP_SECONDS - 1) / CLIP_SECONDS))
MASTER="$OUT/hls/master.m3u8"
printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' > "$MASTER"

for level in "${LEVELS[@]}"; do
  IFS=: read -r name width height bitrate <<<"$level"
  label=""
  if [[ -f "$FONT" ]]; then
    label=",drawtext=fontfile=$FONT:text='Marquee sample ${name}':fontcolor=white:fontsize=h/14:box=1:boxcolor=black@0.6:boxborderw=8:x=(w-text_w)/2:y=h/12"
  fi
  mp4="$OUT/mp4/sample-$name.mp4"
  # One encode per quality; fixed GOP without scene cuts so the HLS segments below cut on key frames.
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=${width}x${height}:rate=$FPS:duration=$CLIP_SECONDS" \
    -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=$CLIP_SECONDS" \
    -vf "format=yuv420p$label" \
    -c:v libx264 -profile:v main -preset slow -b:v "$bitrate" -maxrate "$bitrate" -bufsize "$bitrate" \
    -g "$GOP" -keyint_min "$GOP" -sc_threshold 0 -threads 1 \
    -c:a aac -b:a 48k -ac 2 \
    -map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    -movflags +faststart "$mp4"

  # The same clip cut into segments (no re-encode), then a media playlist that repeats them. Each
  # repetition starts again at the same timestamps, so it is marked as a discontinuity (hls.js and
  # native players reset their timeline there instead of stalling).
  mkdir -p "$OUT/hls/$name"
  ffmpeg -hide_banner -loglevel error -y -i "$mp4" -c copy -map_metadata -1 \
    -f hls -hls_time "$SEGMENT_SECONDS" -hls_playlist_type vod -hls_flags independent_segments \
    -hls_segment_filename "$OUT/hls/$name/seg-%d.ts" "$WORK/$name.m3u8"
  # RFC 6381 codec string from the avcC box (profile, constraints, level), e.g. avc1.4d401f; AAC-LC audio.
  avc=$(od -An -v -tx1 "$mp4" | tr -d ' \n' | grep -o '6176634301[0-9a-f]\{6\}' | head -1 | cut -c11-16)
  [[ -n "$avc" ]] || { echo "no avcC box in $mp4" >&2; exit 1; }
  codecs="avc1.$avc,mp4a.40.2"
  target=$(sed -n 's/^#EXT-X-TARGETDURATION:\([0-9]*\)/\1/p' "$WORK/$name.m3u8")
  # "#EXTINF:x," and segment-name pairs of one pass
  pairs=$(awk '/^#EXTINF/ {d=$0; next} /^seg-/ {print d; print "'"$name"'/" $0}' "$WORK/$name.m3u8")
  {
    printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:%s\n#EXT-X-MEDIA-SEQUENCE:0\n' "$target"
    printf '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n'
    for ((i = 0; i < LOOPS; i++)); do
      ((i > 0)) && printf '#EXT-X-DISCONTINUITY\n'
      printf '%s\n' "$pairs"
    done
    printf '#EXT-X-ENDLIST\n'
  } > "$OUT/hls/$name.m3u8"

  bytes=$(cat "$OUT/hls/$name"/seg-*.ts | wc -c)
  average=$((bytes * 8 / CLIP_SECONDS))
  printf '#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%dx%d,FRAME-RATE=%d.000,CODECS="%s"\n%s.m3u8\n' \
    $((average * 5 / 4)) "$average" "$width" "$height" "$FPS" "$codecs" "$name" >> "$MASTER"
done

# Captions: our own short texts, one cue at the start and then one every ten seconds for as long as the
# HLS sample plays, each naming its own time (handy to see the caption delay setting work).
caption() { # language, line 1, line 2, "every 10 s" prefix
  local first=$2 second=$3 prefix=$4 vtt="$OUT/captions/sample.$1.vtt" srt="$OUT/captions/sample.$1.srt"
  local total=$((LOOPS * CLIP_SECONDS)) n=0
  ts() { printf '%02d:%02d:%02d%s%03d' $(($1 / 3600000)) $(($1 / 60000 % 60)) $(($1 / 1000 % 60)) "$2" $(($1 % 1000)); }
  cue() { # start-ms end-ms text
    n=$((n + 1))
    printf '%s --> %s\n%s\n\n' "$(ts "$1" .)" "$(ts "$2" .)" "$3" >> "$vtt"
    printf '%d\n%s --> %s\n%s\n\n' "$n" "$(ts "$1" ,)" "$(ts "$2" ,)" "$3" >> "$srt"
  }
  printf 'WEBVTT\n\n' > "$vtt"
  : > "$srt"
  cue 500 3500 "$first"
  cue 4000 7500 "<i>$second</i>"
  for ((t = 10; t < total; t += 10)); do
    cue $((t * 1000)) $((t * 1000 + 4000)) "$prefix $(printf '%02d:%02d' $((t / 60)) $((t % 60)))"
  done
}
caption en "This is a Marquee sample" "Test pattern and tone, made with ffmpeg" "Marquee sample —"
caption fr "Ceci est un échantillon Marquee" "Mire et tonalité de test, faites avec ffmpeg" "Échantillon Marquee —"
caption es "Esto es una muestra de Marquee" "Carta de ajuste y tono, hechos con ffmpeg" "Muestra de Marquee —"
caption de "Dies ist ein Marquee-Beispiel" "Testbild und Testton, erstellt mit ffmpeg" "Marquee-Beispiel —"

du -sh "$OUT" | awk '{print "sample media: " $1}'
