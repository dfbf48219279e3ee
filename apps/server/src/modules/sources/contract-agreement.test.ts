import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  CaptionSchema,
  DiscoverEmbedsEventSchema,
  EmbedOutputSchema,
  ImageSubtitleSchema,
  InitEventSchema,
  ProviderMetaSchema,
  RunOutputSchema,
  SourceOutputSchema,
  StreamSchema,
} from '@marquee/contract';
import type {
  Caption,
  DiscoverEmbedsEvent,
  EmbedOutput,
  ImageSubtitle,
  InitEvent,
  ProviderMeta,
  RunOutput,
  SourcererOutput,
  Stream,
} from '@marquee/providers';

// The contract describes the wire; @marquee/providers produces it. `tsc -b` fails here if they drift.
describe('contract and providers agree', () => {
  it('on streams, captions, image subtitles, outputs, events and metadata', () => {
    expectTypeOf<z.infer<typeof CaptionSchema>>().toEqualTypeOf<Caption>();
    expectTypeOf<z.infer<typeof StreamSchema>>().toEqualTypeOf<Stream>();
    expectTypeOf<z.infer<typeof ImageSubtitleSchema>>().toEqualTypeOf<ImageSubtitle>();
    expectTypeOf<z.infer<typeof RunOutputSchema>>().toEqualTypeOf<RunOutput>();
    expectTypeOf<z.infer<typeof SourceOutputSchema>>().toEqualTypeOf<SourcererOutput>();
    expectTypeOf<z.infer<typeof EmbedOutputSchema>>().toEqualTypeOf<EmbedOutput>();
    expectTypeOf<z.infer<typeof InitEventSchema>>().toEqualTypeOf<InitEvent>();
    expectTypeOf<z.infer<typeof DiscoverEmbedsEventSchema>>().toEqualTypeOf<DiscoverEmbedsEvent>();
    expectTypeOf<z.infer<typeof ProviderMetaSchema>>().toEqualTypeOf<ProviderMeta>();
  });
});
