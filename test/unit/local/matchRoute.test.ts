import { describe, expect, it } from 'vitest';
import { HandlerNames, ROUTES } from '../../../lib/http/routeTable';
import { matchRoute } from '../../../local/http/matchRoute';

describe('matchRoute over the API route table', () => {
  it('finds the route of each method and path of the table', () => {
    // Prepare
    const requests = [
      ['POST', '/exports', HandlerNames.START],
      ['GET', '/exports', HandlerNames.LIST],
      ['GET', '/exports/ex_1', HandlerNames.CHECK_STATUS],
      ['POST', '/exports/ex_1/abort', HandlerNames.ABORT],
    ] as const;

    // Act
    const handlers = requests.map(([method, path]) => {
      const match = matchRoute(ROUTES, method, path);
      return match.kind === 'matched' ? match.route.handler : match.kind;
    });

    // Assess
    expect(handlers).toEqual(requests.map(([, , handler]) => handler));
  });

  it('passes path parameters percent-decoded, an encoded slash staying inside its segment', () => {
    // Act
    const plain = matchRoute(ROUTES, 'GET', '/exports/ex%5Fabc');
    const slash = matchRoute(ROUTES, 'POST', '/exports/a%2Fb/abort');

    // Assess
    expect(plain).toMatchObject({ kind: 'matched', pathParameters: { exportId: 'ex_abc' } });
    expect(slash).toMatchObject({
      kind: 'matched',
      route: { handler: HandlerNames.ABORT },
      pathParameters: { exportId: 'a/b' },
    });
  });

  it('compares literal segments after decoding, as API Gateway does', () => {
    // Act
    const match = matchRoute(ROUTES, 'GET', '/export%73');

    // Assess
    expect(match).toMatchObject({ kind: 'matched', route: { handler: HandlerNames.LIST } });
  });

  it('answers notFound for unknown paths, empty parameters, trailing slashes and bad encodings', () => {
    // Prepare
    const paths = [
      '/nope',
      '/exports/',
      '/exports//abort',
      '/exports/ex_1/abort/',
      '/exports/%E0%A4%A',
      'exports',
      '',
    ];

    // Act
    const kinds = paths.map((path) => matchRoute(ROUTES, 'GET', path).kind);

    // Assess
    expect(kinds).toEqual(paths.map(() => 'notFound'));
  });

  it('answers methodNotAllowed with every method the path has, in table order', () => {
    // Act
    const collection = matchRoute(ROUTES, 'DELETE', '/exports');
    const abort = matchRoute(ROUTES, 'GET', '/exports/ex_1/abort');

    // Assess
    expect(collection).toEqual({ kind: 'methodNotAllowed', allow: ['POST', 'GET'] });
    expect(abort).toEqual({ kind: 'methodNotAllowed', allow: ['POST'] });
  });

  it('treats method names as case-sensitive, like HTTP', () => {
    // Act
    const match = matchRoute(ROUTES, 'get', '/exports');

    // Assess
    expect(match.kind).toBe('methodNotAllowed');
  });
});

describe('matchRoute with parameter patterns', () => {
  const routes = [
    {
      method: 'GET',
      path: '/files/{exportId}/{fileName}',
      parameterPatterns: { fileName: /^[1-9]\d*\.csv\.zip$/ },
    },
  ];

  it('matches only when each patterned parameter matches, after decoding', () => {
    // Act
    const file = matchRoute(routes, 'GET', '/files/ex%2D1/12.csv.zip');
    const kinds = ['/files/ex_1/0.csv.zip', '/files/ex_1/1.csv', '/files/ex_1/a.csv.zip'].map(
      (path) => matchRoute(routes, 'GET', path).kind,
    );
    const wrongMethod = matchRoute(routes, 'POST', '/files/ex_1/1.csv.zip');

    // Assess
    expect(file).toMatchObject({
      kind: 'matched',
      pathParameters: { exportId: 'ex-1', fileName: '12.csv.zip' },
    });
    expect(kinds).toEqual(['notFound', 'notFound', 'notFound']);
    expect(wrongMethod).toEqual({ kind: 'methodNotAllowed', allow: ['GET'] });
  });
});
