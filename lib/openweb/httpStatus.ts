export function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

export function isServerError(statusCode: number): boolean {
  return statusCode >= 500 && statusCode < 600;
}
