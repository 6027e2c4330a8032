// A US letter PDF with no margins and its bytes: what every PDF of the service starts from (check
// PDFs and the MICR test page). Metadata is fixed by the caller (no "now"), so equal input gives
// equal bytes.
import PDFDocument from 'pdfkit';

export type Pdf = PDFKit.PDFDocument;

export interface PdfInfo {
  Title: string;
  CreationDate: Date;
}

/** A new letter-size PDF and a promise of its bytes, settled once `pdf.end()` is called. */
export function letterPdf(info: PdfInfo, autoFirstPage: boolean): { pdf: Pdf; bytes: Promise<Buffer> } {
  const pdf: Pdf = new PDFDocument({
    size: 'LETTER',
    margin: 0,
    autoFirstPage,
    compress: true,
    info: { ...info, Producer: 'checkwriter', Creator: 'checkwriter' },
  });
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  return { pdf, bytes };
}
