import { describe, expect, it } from 'vitest';
import { isServerError, isSuccess } from '../../../../lib/openweb/httpStatus';

describe('httpStatus', () => {
  it('tells a 2xx success from everything else', () => {
    // Act / Assess
    expect([199, 200, 202, 204, 299, 300, 404].map(isSuccess)).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('tells a 5xx server error from everything else', () => {
    // Act / Assess
    expect([429, 499, 500, 503, 599, 600].map(isServerError)).toEqual([
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});
