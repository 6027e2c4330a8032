// Task: an import's CSV file read within its bounds (csv-parse), its columns mapped and every row
// checked against the API's request schema (formats/imports/read-import-file.ts, pure by design:
// text in, plain data out, a refused file as a value). Names and the services' rules, which need
// the database, stay with the preview on the main thread.
import {
  type ImportFileRequest,
  type ImportFileResult,
  readImportFile,
} from '../../formats/imports/read-import-file.ts';

export interface ReadImportFileInput {
  csv: string;
  request: ImportFileRequest;
}

export async function run(input: ReadImportFileInput): Promise<ImportFileResult> {
  return readImportFile(input.csv, input.request);
}
