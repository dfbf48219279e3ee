import type { GroupOrder } from '@marquee/contract';
import type { LibraryRef } from '../library/library.ts';
import type { GroupOrderRepository } from './group-order.repository.ts';

/**
 * p-stream's order of bookmark groups, per library. Its client re-sends the whole list whenever it
 * changed and sends no change time, so the last write to arrive wins; never set reads as `[]`.
 */
export class GroupOrderService {
  constructor(
    private readonly orders: GroupOrderRepository,
    private readonly now: () => number,
  ) {}

  async get(lib: LibraryRef): Promise<GroupOrder> {
    const row = await this.orders.find(lib);
    return { groupOrder: row ? (JSON.parse(row.group_order) as string[]) : [] };
  }

  /** `groupOrder`: names already checked, trimmed and without repeats (the contract's body). */
  async put(lib: LibraryRef, groupOrder: string[]): Promise<GroupOrder> {
    await this.orders.save({
      user_id: lib.userId,
      profile_id: lib.profileId,
      group_order: JSON.stringify(groupOrder),
      updated_at: this.now(),
    });
    return { groupOrder };
  }
}
