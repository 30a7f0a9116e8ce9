/**
 * The main thread's answer to a header row the workbook's reading thread offered, in
 * ReaderData.progress[1] (workbook-reader.ts): the header search is the main thread's
 * (header-search.ts). Its own module, so that the main thread need not load the reader's.
 */
export const HEADER_VERDICT = { pending: 0, header: 1, title: 2 } as const;
