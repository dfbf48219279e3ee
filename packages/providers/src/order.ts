interface Orderable {
  id: string;
  rank: number;
  disabled?: boolean;
  isFallback?: boolean;
}

/**
 * The order providers run in: ids named by the orders come first (earlier orders win, so a viewer's
 * order goes before the instance's), the rest by rank, highest first. Disabled providers are dropped and
 * fallback providers always run last. Unknown ids in an order are ignored.
 */
export function orderProviders<T extends Orderable>(
  list: readonly T[],
  ...orders: (readonly string[] | undefined)[]
): T[] {
  const wanted: string[] = [];
  for (const order of orders) for (const id of order ?? []) if (!wanted.includes(id)) wanted.push(id);
  const position = (item: T) => {
    const index = wanted.indexOf(item.id);
    return index === -1 ? Number.POSITIVE_INFINITY : index;
  };
  return list
    .filter((item) => !item.disabled)
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        Number(a.item.isFallback ?? false) - Number(b.item.isFallback ?? false) ||
        position(a.item) - position(b.item) ||
        b.item.rank - a.item.rank ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}
