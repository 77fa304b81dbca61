/** One request to the API, before it is sent: what a signer sees and may add headers to. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** Returns the headers to send, including whatever authorizes the request. */
export type RequestSigner = (request: ApiRequest) => Promise<Record<string, string>>;
