/**
 * Makes the small show of the segment detection tests (apps/server/test/segments-fixture.ts: four
 * episodes of Breaking Bad sharing a 20 s intro at different places and an end-credits tune over black)
 * in a folder, for the e2e suite's library instance of intros and credits. Needs ffmpeg.
 *
 *   node --import tsx scripts/make-segments-show.ts <dir>
 *
 * Running it again on a complete show returns at once.
 */
import { makeSegmentsShow } from '../apps/server/test/segments-fixture.ts';

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node --import tsx scripts/make-segments-show.ts <dir>');
  process.exit(2);
}
const show = await makeSegmentsShow(dir);
console.log(`${show.episodes.length} episodes in ${show.showDir}`);
