/**
 * A zod schema built by its first use rather than when its module loads. Building a schema runs
 * zod's constructors for every part of it, a measurable share of a function's cold start, while
 * an invocation parses with few of them: a status read answered from the table reads no upstream
 * reply, a poll no secret. Each function then pays only for the schemas its invocations use.
 */
export function schemaOnFirstUse<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}
