/**
 * What `make` returns, made at the first call and kept: for zod schemas, whose classes zod
 * builds as each schema is made, start-up a run that never uses them would pay for nothing
 * (docs/contract.md §8, "Start-up").
 */
export function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
