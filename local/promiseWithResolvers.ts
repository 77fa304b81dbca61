// aws-local-stepfunctions calls Promise.withResolvers (Node ≥ 22); this project's tooling also runs on Node 20.
interface PromiseWithResolversShape<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const promiseConstructor = Promise as unknown as { withResolvers?: <T>() => PromiseWithResolversShape<T> };

promiseConstructor.withResolvers ??= <T>(): PromiseWithResolversShape<T> => {
  let resolve!: PromiseWithResolversShape<T>['resolve'];
  let reject!: PromiseWithResolversShape<T>['reject'];
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
};
