declare module 'virtual:catalogs' {
  /** Every namespace (the English catalog's files). */
  export const namespaces: string[];
  /** language → its catalog module (catalogs-plugin.ts). */
  const languages: Record<string, () => Promise<typeof import('virtual:catalogs/en')>>;
  export default languages;
}

declare module 'virtual:catalogs/en' {
  /** The layout's namespaces, in the language's chunk. */
  export const bundled: Record<string, Record<string, unknown>>;
  /** Every other namespace, each its own chunk. */
  export const lazy: Record<string, () => Promise<{ default: Record<string, unknown> }>>;
}
