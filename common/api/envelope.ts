/** The JSON envelope of every /serve/api response. `code` is the HTTP status. */
export interface ApiEnvelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** Field errors of a 422 response: field path to messages. */
export interface ValidationErrorData {
  errors: Record<string, string[]>;
}
