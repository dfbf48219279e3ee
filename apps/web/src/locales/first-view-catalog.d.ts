declare module 'virtual:first-view-catalog' {
  const catalog: Record<string, unknown>;
  export default catalog;
}
