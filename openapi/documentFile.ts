/** The committed OpenAPI document, relative to the project root (`npm run openapi` writes it). */
export const OPENAPI_DOCUMENT_FILE = 'openapi.json';
