import { titleAge, withinLimit, type ContentLimit, type TmdbType } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { MetadataService } from './metadata.service.ts';

export const overContentLimit = () =>
  new AppError(403, 'over_content_limit', "This title is over the limit of this kids' profile");

/**
 * Kids' profiles' limits applied to titles (decision 106): a title passes when its rating in the limit's
 * region (else its US rating) is meant for the limit's age or younger; unrated titles pass only when the
 * limit shows them. Lists drop what does not pass — and titles whose ratings cannot be read now (fail
 * closed); a single title over the limit is refused with 403 `over_content_limit`.
 */
export class ContentLimits {
  constructor(private readonly metadata: Pick<MetadataService, 'certifications'>) {}

  /** Whether the title passes; a failure to read its ratings is thrown (the metadata's own error). */
  async allows(limit: ContentLimit, type: TmdbType, id: string): Promise<boolean> {
    const certifications = await this.metadata.certifications(type, id);
    return withinLimit(limit, titleAge(certifications, limit.region, type));
  }

  async assertAllowed(limit: ContentLimit | null, type: TmdbType, id: string): Promise<void> {
    if (limit && !(await this.allows(limit, type, id))) throw overContentLimit();
  }

  /** The titles that pass, in order; every title when there is no limit. */
  async keep<T extends { type: TmdbType; id: string }>(
    limit: ContentLimit | null,
    titles: T[],
  ): Promise<T[]> {
    if (!limit) return titles;
    const passes = await Promise.all(
      titles.map((title) => this.allows(limit, title.type, title.id).catch(() => false)),
    );
    return titles.filter((_, i) => passes[i]);
  }
}
