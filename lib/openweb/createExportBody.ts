import type { CreateExportRequest } from '../exports/record/CreateExportRequest';

/** The upstream's snake_case body for `POST /v4/export`. */
export function toCreateExportBody(request: CreateExportRequest): Record<string, string | number> {
  const body: Record<string, string | number> =
    'conversationId' in request
      ? { conversation_id: request.conversationId }
      : { from: request.from, until: request.until };
  if (request.delimiter !== undefined) body.delimiter = request.delimiter;
  if (request.maxRecordsInFile !== undefined) body.max_records_in_file = request.maxRecordsInFile;
  return body;
}
