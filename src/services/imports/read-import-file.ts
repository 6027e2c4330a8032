// The panel's imports page still names this path for the file's bounds; the reader itself is
// formats/imports/read-import-file.ts. Delete this file once the panel imports from there.
export {
  fileTooLargeMessage,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
} from '../../formats/imports/read-import-file.ts';
