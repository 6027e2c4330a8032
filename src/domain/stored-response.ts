// An answer kept for an idempotency key: replayed byte for byte on a retry.

export interface StoredResponse {
  status: number;
  type: string;
  body: Buffer;
}
