import { describe, expect, it } from 'vitest';
import { permissionNames, recordIn, requireRecord, written } from '../../src/api/answers.js';
import {
  BadRequestError,
  errorFromResponse,
  UnprocessableEntityError,
  UnusableResponseError,
  ValidationFailedError,
} from '../../src/api/errors.js';

describe('reading a 2xx answer leniently', () => {
  it('finds the record at data, under the named key, or as the body itself', () => {
    expect(recordIn({ status: 201, message: 'ok', data: { id: 1 } })).toEqual({ id: 1 });
    expect(recordIn({ success: true, template: { id: 2 } }, 'template')).toEqual({ id: 2 });
    expect(recordIn({ id: '3', name: 'bare', status: 'PENDING' })).toEqual({ id: '3', name: 'bare', status: 'PENDING' });
  });

  it('holds no record in {data: null}, {}, {success: true}, text or nothing', () => {
    for (const body of [{ data: null }, {}, { success: true }, 'Created', undefined, [{ id: 1 }], { data: [{ id: 1 }] }])
      expect(recordIn(body, 'template')).toBeUndefined();
  });

  it('a create keeps the record, the message and the body as sent', () => {
    expect(written({ status: 201, message: 'Label created successfully.', data: { id: 4, extra: true } })).toEqual({
      data: { id: 4, extra: true },
      message: 'Label created successfully.',
      body: { status: 201, message: 'Label created successfully.', data: { id: 4, extra: true } },
    });
    expect(written({})).toEqual({ data: undefined, body: {} });
  });

  it('a get without a record is unusable, naming what was asked', () => {
    expect(() => requireRecord({ data: null }, 'getting label 4')).toThrow(
      new UnusableResponseError("the server's answer to getting label 4 holds no record (no `data` object)"),
    );
  });

  it('reads permission entries as names or objects with a name', () => {
    expect(permissionNames(['a.view', { id: 2, name: 'b.view', guard_name: 'api' }, { id: 3 }, 7])).toEqual(['a.view', 'b.view']);
    expect(permissionNames(undefined)).toBeUndefined();
  });
});

describe('validation failures', () => {
  const init = (status: number, body: unknown) => ({ status, body, headers: {}, method: 'POST', url: 'http://h/api/v3/x' });

  it('a 400 with errors is a validation failure like a 422; a 400 without is not', () => {
    const body = { message: 'Validation error', errors: { name: ['The name field is required.'] } };
    const bad = errorFromResponse(init(400, body));
    expect(bad).toBeInstanceOf(ValidationFailedError);
    expect((bad as ValidationFailedError).errors).toEqual(body.errors);
    expect(errorFromResponse(init(422, body))).toBeInstanceOf(UnprocessableEntityError);
    expect(errorFromResponse(init(422, body))).toBeInstanceOf(ValidationFailedError);
    const plain = errorFromResponse(init(400, { message: 'Bad request.' }));
    expect(plain).toBeInstanceOf(BadRequestError);
    expect(plain).not.toBeInstanceOf(ValidationFailedError);
  });
});
