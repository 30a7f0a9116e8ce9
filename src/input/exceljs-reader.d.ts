/**
 * exceljs's streaming workbook reader, which workbook-reader.ts imports alone: exceljs's own
 * typings cover its package entry only. What portin reads of it is typed where it is used.
 */
declare module "exceljs/lib/stream/xlsx/workbook-reader.js" {
  const WorkbookReader: unknown;
  // eslint-disable-next-line no-restricted-syntax -- a CommonJS module's exports, which an ES module imports as its default
  export default WorkbookReader;
}
